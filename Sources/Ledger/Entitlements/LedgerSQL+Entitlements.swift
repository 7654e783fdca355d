import Foundation

extension LedgerSQL {
    /// The first key of the PostgreSQL advisory locks on a player's stacked entitlements
    /// (non-renewing periods); the second is the hash of the player and entitlement id.
    static let entitlementStackLockSpace: Int64 = 0x534B_454E  // "SKEN"

    /// The states that entitle, as an SQL list.
    private static let entitlingStates = EntitlementState.allCases.filter(\.entitles)
        .map { "'\($0.rawValue)'" }.joined(separator: ", ")

    /// Inserts the entitlement unless its original transaction has one; a row only when
    /// inserted.
    static func insertEntitlement(_ entitlement: Entitlement) -> LedgerStatement {
        EntitlementTable.insert(
            [
                .store: .text(entitlement.store.rawValue),
                .originalTransactionId: .text(entitlement.originalTransactionId),
                .playerId: .text(entitlement.playerId), .entitlementId: .text(entitlement.entitlementId),
                .productId: .text(entitlement.productId), .productType: .text(entitlement.productType.rawValue),
                .transactionId: .text(entitlement.transactionId), .state: .text(entitlement.state.rawValue),
                .startsAt: .timestamp(entitlement.since), .endsAt: .optional(entitlement.until),
                .autoRenew: .optional(entitlement.autoRenew),
                .autoRenewProductId: .optional(entitlement.autoRenewProductId),
                .ownership: .text(entitlement.ownership.rawValue),
                .environment: .text(entitlement.environment.rawValue),
                .signedAt: .timestamp(entitlement.signedAt), .updatedAt: .timestamp(entitlement.updatedAt),
            ],
            "ON CONFLICT (original_transaction_id) DO NOTHING RETURNING \(EntitlementTable.columns)")
    }

    /// Writes every changeable field of the entitlement (holder, product, transaction,
    /// state, end, renewal intent, signed date, change time) and clears its recheck
    /// schedule; returns it.
    static func updateEntitlement(_ entitlement: Entitlement) -> LedgerStatement {
        LedgerStatement(
            """
            UPDATE entitlements SET player_id = ?, product_id = ?, transaction_id = ?, state = ?, ends_at = ?, \
            auto_renew = ?, auto_renew_product_id = ?, apple_signed_at = ?, updated_at = ?, \
            recheck_at = NULL, recheck_failures = 0
            WHERE original_transaction_id = ?
            RETURNING \(EntitlementTable.columns)
            """,
            [
                .text(entitlement.playerId), .text(entitlement.productId), .text(entitlement.transactionId),
                .text(entitlement.state.rawValue), .optional(entitlement.until), .optional(entitlement.autoRenew),
                .optional(entitlement.autoRenewProductId), .timestamp(entitlement.signedAt),
                .timestamp(entitlement.updatedAt), .text(entitlement.originalTransactionId),
            ]
        )
    }

    /// The entitlement of an original transaction; with `locking`, PostgreSQL locks its row
    /// until the end of the transaction (`FOR UPDATE`), so a change reads what the previous
    /// one committed.
    static func entitlement(store: Store, originalTransactionId: String, locking: Bool, dialect: Dialect)
        -> LedgerStatement
    {
        let lock = locking && dialect == .postgres ? " FOR UPDATE" : ""
        return LedgerStatement(
            "SELECT \(EntitlementTable.columns) FROM entitlements WHERE original_transaction_id = ? AND store = ?\(lock)",
            [.text(originalTransactionId), .text(store.rawValue)]
        )
    }

    static func entitlements(playerId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(EntitlementTable.columns) FROM entitlements WHERE player_id = ?
            ORDER BY entitlement_id, starts_at, original_transaction_id
            """,
            [.text(playerId)]
        )
    }

    /// Entitling entitlements of `productType` whose end is before `date` and whose recheck
    /// is due by then, oldest end first.
    static func lapsedEntitlements(productType: ProductKind, before date: Date, limit: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(EntitlementTable.columns) FROM entitlements
            WHERE state IN (\(entitlingStates)) AND ends_at IS NOT NULL AND ends_at < ? AND product_type = ?
            AND (recheck_at IS NULL OR recheck_at <= ?)
            ORDER BY ends_at, original_transaction_id
            LIMIT ?
            """,
            [.timestamp(date), .text(productType.rawValue), .timestamp(date), .integer(Int64(max(limit, 0)))]
        )
    }

    /// The entitlement's checks in a row that left it lapsed (`recheck_failures`), its row
    /// locked on PostgreSQL.
    static func recheckFailures(store: Store, originalTransactionId: String, dialect: Dialect) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT recheck_failures FROM entitlements WHERE original_transaction_id = ? AND store = ?\
            \(dialect == .postgres ? " FOR UPDATE" : "")
            """,
            [.text(originalTransactionId), .text(store.rawValue)]
        )
    }

    /// Sets when the entitlement may next be rechecked, and its failures in a row, if it is
    /// still lapsed at `now` (a renewal committed since the reconciler looked is left alone).
    static func scheduleRecheck(originalTransactionId: String, at date: Date, failures: Int64, now: Date)
        -> LedgerStatement
    {
        LedgerStatement(
            """
            UPDATE entitlements SET recheck_at = ?, recheck_failures = ?
            WHERE original_transaction_id = ? AND state IN (\(entitlingStates)) AND ends_at IS NOT NULL AND ends_at < ?
            RETURNING recheck_at
            """,
            [.timestamp(date), .integer(failures), .text(originalTransactionId), .timestamp(now)]
        )
    }

    /// The latest end (as `ends_at`, NULL when none) of the player's entitling
    /// entitlements of this id and product type: where a stacked period starts. With
    /// `purchasedBy`, only of those whose backing purchase was bought no later.
    static func latestStackedEnd(playerId: String, entitlementId: String, productType: ProductKind, purchasedBy: Date?)
        -> LedgerStatement
    {
        var arguments: [SQLArgument] = [.text(playerId), .text(entitlementId), .text(productType.rawValue)]
        var bought = ""
        if let purchasedBy {
            bought = """
                 AND EXISTS (SELECT 1 FROM purchases p WHERE p.transaction_id = entitlements.transaction_id \
                AND p.purchase_date <= ?)
                """
            arguments.append(.timestamp(purchasedBy))
        }
        return LedgerStatement(
            """
            SELECT max(ends_at) AS ends_at FROM entitlements
            WHERE player_id = ? AND entitlement_id = ? AND product_type = ? AND state IN (\(entitlingStates))\(bought)
            """,
            arguments
        )
    }

    /// Locks the player's stacked entitlements of this id until the end of the database
    /// transaction, so two periods bought at once stack one after the other. (PostgreSQL
    /// only: SQLite has one writer.)
    static func lockEntitlementStack(playerId: String, entitlementId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT pg_advisory_xact_lock(CAST(? AS INTEGER), hashtext(?))",
            [.integer(entitlementStackLockSpace), .text("\(playerId)\u{1F}\(entitlementId)")]
        )
    }
}

extension SQLArgument {
    /// A flag as 0 or 1, or NULL for `nil`.
    static func optional(_ value: Bool?) -> SQLArgument {
        value.map { .integer($0 ? 1 : 0) } ?? .null
    }
}
