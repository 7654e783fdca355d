import Foundation

extension LedgerWrites {
    /// Sets a newly delivered purchase's grant on the entitlement of its original
    /// transaction, inside the delivery's database transaction: inserts it for the
    /// purchase's player when absent; otherwise updates product, transaction, state, end and
    /// renewal intent if the grant's data is not older than the recorded data and changes
    /// something (the holder stays). With `expectedHolder`, throws
    /// ``LedgerError/chainHolderChanged(originalTransactionId:)`` when the entitlement it
    /// finds (or that another transaction inserted meanwhile) is not that holder's.
    static func grantEntitlement(
        _ grant: EntitlementGrant,
        of purchase: Purchase,
        reason: String,
        expectedHolder: ChainHolder?,
        dialect: LedgerSQL.Dialect,
        at now: Date
    ) -> LedgerOperation<Void> {
        let (store, originalTransactionId) = (purchase.store, purchase.originalTransactionId)
        return lockedEntitlement(store, originalTransactionId, dialect: dialect).then { existing in
            try check(existing, isHeldBy: expectedHolder, originalTransactionId)
            if let existing {
                return applyGrant(grant, of: purchase, to: existing, reason: reason, at: now)
            }
            return newEntitlement(grant, of: purchase, dialect: dialect, at: now).then { entitlement in
                LedgerOperation.first(LedgerSQL.insertEntitlement(entitlement), Entitlement.init(row:))
            }
            .then { inserted in
                if let inserted {
                    return recordEntitlementChange(inserted, previous: nil, reason: reason, at: now)
                }
                // Another transaction inserted the chain's entitlement meanwhile (PostgreSQL
                // made this insert wait for it): update what it committed.
                return LedgerOperation.first(
                    LedgerSQL.entitlement(
                        store: store, originalTransactionId: originalTransactionId, locking: true, dialect: dialect),
                    Entitlement.init(row:)
                ).then { existing in
                    guard let existing else {
                        throw LedgerError.transactionIdOfOtherStore(store: store, transactionId: originalTransactionId)
                    }
                    try check(existing, isHeldBy: expectedHolder, originalTransactionId)
                    return applyGrant(grant, of: purchase, to: existing, reason: reason, at: now)
                }
            }
        }
    }

    /// Throws ``LedgerError/chainHolderChanged(originalTransactionId:)`` unless `entitlement`
    /// (`nil`: none) is held as `expected` says; checks nothing without an expectation.
    static func check(_ entitlement: Entitlement?, isHeldBy expected: ChainHolder?, _ originalTransactionId: String)
        throws
    {
        guard let expected else { return }
        let holder: ChainHolder = entitlement.map { .player($0.playerId) } ?? .nobody
        guard holder == expected else {
            throw LedgerError.chainHolderChanged(originalTransactionId: originalTransactionId)
        }
    }

    /// Applies ``EntitlementStore/backfillEntitlement(_:of:)`` in one database transaction.
    static func backfillEntitlement(
        _ grant: EntitlementGrant,
        of purchase: Purchase,
        dialect: LedgerSQL.Dialect,
        at now: Date
    ) -> LedgerOperation<Entitlement?> {
        lockedEntitlement(purchase.store, purchase.originalTransactionId, dialect: dialect).then { existing in
            guard existing == nil else { return .done(nil) }
            return newEntitlement(grant, of: purchase, stackingOnEarlierPurchasesOnly: true, dialect: dialect, at: now)
                .then { entitlement in
                    LedgerOperation.first(LedgerSQL.insertEntitlement(entitlement), Entitlement.init(row:))
                }
                .then { inserted in
                    guard let inserted else { return .done(nil) }
                    return recordEntitlementChange(inserted, previous: nil, reason: "backfill", at: now).map {
                        inserted
                    }
                }
        }
    }

    /// The first wait of ``EntitlementStore/postponeSubscriptionCheck(store:originalTransactionId:now:)``,
    /// and the longest.
    static let firstRecheckDelay: TimeInterval = 60
    static let longestRecheckDelay: TimeInterval = 86_400

    /// Applies ``EntitlementStore/postponeSubscriptionCheck(store:originalTransactionId:now:)``
    /// in one database transaction.
    static func postponeSubscriptionCheck(
        store: Store, originalTransactionId: String, now: Date, dialect: LedgerSQL.Dialect
    ) -> LedgerOperation<Date?> {
        LedgerOperation.statement(
            LedgerSQL.recheckFailures(store: store, originalTransactionId: originalTransactionId, dialect: dialect)
        ) { rows in
            guard let row = rows.first else { return .done(nil) }
            let failures = try row.integer("recheck_failures") ?? 0
            // 60 s × 2^failures, at most a day (2^11 minutes passes it).
            let delay = min(longestRecheckDelay, firstRecheckDelay * Double(1 << min(failures, 11)))
            let next = now.addingTimeInterval(delay).ledgerNormalized
            return LedgerOperation.first(
                LedgerSQL.scheduleRecheck(
                    originalTransactionId: originalTransactionId, at: next, failures: failures + 1, now: now)
            ) { row in try row.timestamp("recheck_at") }
            .map { scheduled in scheduled.flatMap { $0 } }
        }
    }

    /// Applies ``EntitlementStore/updateEntitlement(_:)`` in one database transaction.
    static func updateEntitlement(
        _ update: EntitlementUpdate,
        dialect: LedgerSQL.Dialect,
        at now: Date
    ) -> LedgerOperation<EntitlementChangeResult> {
        lockedEntitlement(update.store, update.originalTransactionId, dialect: dialect).then { existing in
            guard let existing else { return .done(.unknown) }
            guard update.signedAt >= existing.signedAt else { return .done(.unchanged(existing)) }
            guard let transactionId = update.transactionId else { return apply(update, to: existing, at: now) }
            return isEarlierPurchase(transactionId, than: existing).then { earlier in
                earlier ? applyRenewalIntent(of: update, to: existing, at: now) : apply(update, to: existing, at: now)
            }
        }
    }

    /// Whether `transactionId` is a purchase the ledger knows as bought before the one
    /// backing `existing` (both delivered). Apple's data about it then predates that period
    /// (a subscription's notification carries the chain's latest transaction), however it
    /// compares by signed date with the data behind `existing`: a billing recovery in grace
    /// starts its period at the failed one's end, so a device's report of it is dated before
    /// the failure notification Apple signed meanwhile, which must not take it back.
    private static func isEarlierPurchase(_ transactionId: String, than existing: Entitlement)
        -> LedgerOperation<Bool>
    {
        guard transactionId != existing.transactionId else { return .done(false) }
        let store = existing.store
        return LedgerOperation.first(
            LedgerSQL.purchase(store: store, transactionId: transactionId), Purchase.init(row:)
        )
        .then { about in
            LedgerOperation.first(
                LedgerSQL.purchase(store: store, transactionId: existing.transactionId), Purchase.init(row:)
            ).map { backing in
                guard let about, let backing else { return false }
                return backing.purchaseDate > about.purchaseDate
            }
        }
    }

    /// Of an update about an earlier period, only the chain's renewal intent (what the
    /// customer chose since), keeping the backing transaction, state, end and signed date.
    private static func applyRenewalIntent(of update: EntitlementUpdate, to existing: Entitlement, at now: Date)
        -> LedgerOperation<EntitlementChangeResult>
    {
        var changed = existing
        changed.autoRenew = update.autoRenew ?? existing.autoRenew
        changed.autoRenewProductId = update.autoRenewProductId ?? existing.autoRenewProductId
        return write(changed, over: existing, signedAt: existing.signedAt, reason: update.reason, at: now)
            .map { written in written.map(EntitlementChangeResult.changed) ?? .unchanged(existing) }
    }

    /// Applies `update` to `existing` (see ``updateEntitlement(_:dialect:at:)``).
    private static func apply(_ update: EntitlementUpdate, to existing: Entitlement, at now: Date)
        -> LedgerOperation<EntitlementChangeResult>
    {
        var changed = existing
        changed.transactionId = update.transactionId ?? existing.transactionId
        changed.productId = update.productId ?? existing.productId
        changed.state = update.state
        if update.setsUntil { changed.until = update.until }
        changed.autoRenew = update.autoRenew ?? existing.autoRenew
        changed.autoRenewProductId = update.autoRenewProductId ?? existing.autoRenewProductId
        return write(changed, over: existing, signedAt: update.signedAt, reason: update.reason, at: now)
            .map { written in written.map(EntitlementChangeResult.changed) ?? .unchanged(existing) }
    }

    /// Applies ``EntitlementStore/transferEntitlement(store:originalTransactionId:to:reason:actor:)``
    /// in one database transaction.
    static func transferEntitlement(
        store: Store,
        originalTransactionId: String,
        to playerId: String,
        reason: String,
        actor: String?,
        dialect: LedgerSQL.Dialect,
        at now: Date
    ) -> LedgerOperation<EntitlementTransferResult> {
        lockedEntitlement(store, originalTransactionId, dialect: dialect).then { existing in
            guard let existing else { return .done(.unknown) }
            guard existing.playerId != playerId else { return .done(.alreadyHeld(existing)) }
            var moved = existing
            moved.playerId = playerId
            moved.updatedAt = now
            return LedgerOperation.first(LedgerSQL.updateEntitlement(moved), Entitlement.init(row:)).then { written in
                guard let written else {
                    throw LedgerError.corruptRow("entitlement \(originalTransactionId) vanished while locked")
                }
                let from = existing.playerId
                var details = [
                    "originalTransactionId": originalTransactionId, "entitlementId": written.entitlementId,
                    "from": from, "to": playerId, "reason": reason,
                ]
                details["actor"] = actor
                let detail = details
                return LedgerOperation<Void>.reduce([from, playerId], into: ()) { _, player in
                    let event = HistoryEvent(
                        type: .entitlementTransferred, playerId: player, transactionId: written.transactionId,
                        store: written.store, detail: detail, createdAt: now)
                    let message = EntitlementMessage(entitlement: written, reason: reason, at: now, playerId: player)
                    return LedgerOperation.execute(try LedgerSQL.insertEvent(event)).then {
                        .execute(
                            LedgerSQL.insertOutbox(
                                idempotencyKey: EntitlementMessage.transferKey(
                                    store: store, originalTransactionId: originalTransactionId, playerId: player,
                                    at: now),
                                playerId: player,
                                transactionId: written.transactionId,
                                payload: String(decoding: try message.encoded(), as: UTF8.self),
                                at: now))
                    }
                }
                .map { .transferred(from: from, written) }
            }
        }
    }

    /// Reads the entitlement under its row lock (PostgreSQL), then passes the
    /// ``LedgerPausePoint/entitlementRead(originalTransactionId:)`` checkpoint.
    private static func lockedEntitlement(
        _ store: Store,
        _ originalTransactionId: String,
        dialect: LedgerSQL.Dialect
    ) -> LedgerOperation<Entitlement?> {
        LedgerOperation.first(
            LedgerSQL.entitlement(
                store: store, originalTransactionId: originalTransactionId, locking: true, dialect: dialect),
            Entitlement.init(row:)
        )
        .then { existing in
            .pause(at: .entitlementRead(originalTransactionId: originalTransactionId), returning: existing)
        }
    }

    /// The entitlement a first delivery of its chain creates; a stacked period ends
    /// `stackSeconds` after the later of its purchase and the end of the player's latest
    /// entitling period of the same id and product type (read under the stack's lock) —
    /// with `stackingOnEarlierPurchasesOnly` (a backfill), only of periods bought no later
    /// than this one, so an old period never stacks on one bought since.
    private static func newEntitlement(
        _ grant: EntitlementGrant,
        of purchase: Purchase,
        stackingOnEarlierPurchasesOnly: Bool = false,
        dialect: LedgerSQL.Dialect,
        at now: Date
    ) -> LedgerOperation<Entitlement> {
        let entitlement = Entitlement(
            store: purchase.store,
            originalTransactionId: purchase.originalTransactionId,
            playerId: purchase.playerId,
            entitlementId: grant.entitlementId,
            productId: purchase.productId,
            productType: grant.productType,
            transactionId: purchase.transactionId,
            state: grant.state,
            since: grant.since.ledgerNormalized,
            until: grant.until?.ledgerNormalized,
            autoRenew: grant.autoRenew,
            autoRenewProductId: grant.autoRenewProductId,
            ownership: grant.ownership,
            environment: purchase.environment,
            signedAt: grant.signedAt.ledgerNormalized,
            updatedAt: now
        )
        guard let stackSeconds = grant.stackSeconds else { return .done(entitlement) }
        let lock: LedgerOperation<Void> =
            switch dialect {
            case .postgres:
                .execute(
                    LedgerSQL.lockEntitlementStack(playerId: purchase.playerId, entitlementId: grant.entitlementId))
            case .sqlite: .done(())
            }
        let latest = LedgerSQL.latestStackedEnd(
            playerId: purchase.playerId, entitlementId: grant.entitlementId, productType: grant.productType,
            purchasedBy: stackingOnEarlierPurchasesOnly ? purchase.purchaseDate : nil)
        return lock.then { _ in
            LedgerOperation.statement(latest) { rows in
                let latestEnd = try rows.first?.timestamp("ends_at")
                let start = max(purchase.purchaseDate, latestEnd ?? purchase.purchaseDate)
                var stacked = entitlement
                stacked.until = start.addingTimeInterval(TimeInterval(stackSeconds)).ledgerNormalized
                return .pause(
                    at:
                        .entitlementStackRead(playerId: purchase.playerId, entitlementId: grant.entitlementId),
                    returning: stacked)
            }
        }
    }

    /// Applies a delivery's grant to the chain's recorded entitlement (never its holder),
    /// unless the grant's data is older, or its purchase was bought before the one backing
    /// the entitlement (see ``isEarlierPurchase(_:than:)``).
    private static func applyGrant(
        _ grant: EntitlementGrant,
        of purchase: Purchase,
        to existing: Entitlement,
        reason: String,
        at now: Date
    ) -> LedgerOperation<Void> {
        let signedAt = grant.signedAt.ledgerNormalized
        guard signedAt >= existing.signedAt else { return .done(()) }
        var changed = existing
        changed.productId = purchase.productId
        changed.transactionId = purchase.transactionId
        changed.state = grant.state
        // A stacked period's end was fixed when it was bought.
        if grant.stackSeconds == nil { changed.until = grant.until?.ledgerNormalized }
        // A grant without renewal info (a device's report) keeps the intent recorded.
        changed.autoRenew = grant.autoRenew ?? existing.autoRenew
        changed.autoRenewProductId = grant.autoRenewProductId ?? existing.autoRenewProductId
        let newer = changed
        return isEarlierPurchase(purchase.transactionId, than: existing).then { earlier in
            earlier
                ? .done(())
                : write(newer, over: existing, signedAt: signedAt, reason: reason, at: now).map { _ in () }
        }
    }

    /// Writes `changed` (signed at `signedAt`) with its event and message unless it differs
    /// from `existing` in nothing but the signed date; the written entitlement, or `nil`.
    private static func write(
        _ changed: Entitlement,
        over existing: Entitlement,
        signedAt: Date,
        reason: String,
        at now: Date
    ) -> LedgerOperation<Entitlement?> {
        var changed = changed
        changed.signedAt = existing.signedAt
        changed.updatedAt = existing.updatedAt
        guard changed != existing else { return .done(nil) }
        changed.signedAt = signedAt.ledgerNormalized
        changed.updatedAt = now
        let originalTransactionId = changed.originalTransactionId
        return LedgerOperation.first(LedgerSQL.updateEntitlement(changed), Entitlement.init(row:)).then { written in
            guard let written else {
                throw LedgerError.corruptRow("entitlement \(originalTransactionId) vanished while locked")
            }
            return recordEntitlementChange(written, previous: existing, reason: reason, at: now).map { written }
        }
    }

    /// Appends the ``HistoryEventType/entitlementChanged`` event and enqueues the
    /// ``EntitlementMessage`` of a created or changed entitlement.
    private static func recordEntitlementChange(
        _ entitlement: Entitlement,
        previous: Entitlement?,
        reason: String,
        at now: Date
    ) -> LedgerOperation<Void> {
        var detail = [
            "originalTransactionId": entitlement.originalTransactionId,
            "entitlementId": entitlement.entitlementId,
            "productId": entitlement.productId,
            "state": entitlement.state.rawValue,
            "appleSignedDate": String(entitlement.signedAt.ledgerMilliseconds),
            "reason": reason,
        ]
        detail["previousState"] = previous?.state.rawValue
        detail["until"] = entitlement.until.map { String($0.ledgerMilliseconds) }
        let event = HistoryEvent(
            type: .entitlementChanged, playerId: entitlement.playerId, transactionId: entitlement.transactionId,
            store: entitlement.store,
            detail: detail, createdAt: now)
        let message = EntitlementMessage(entitlement: entitlement, reason: reason, at: now)
        return LedgerOperation<Void>.done(()).then { .execute(try LedgerSQL.insertEvent(event)) }.then {
            .execute(
                LedgerSQL.insertOutbox(
                    idempotencyKey: EntitlementMessage.idempotencyKey(of: entitlement),
                    playerId: entitlement.playerId,
                    transactionId: entitlement.transactionId,
                    payload: String(decoding: try message.encoded(), as: UTF8.self),
                    at: now))
        }
    }
}
