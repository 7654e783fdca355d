import Foundation

/// The reads behind the support console (see ``SupportReads``).
extension LedgerSQL {
    static func purchases(store: Store, originalTransactionId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(PurchaseTable.columns) FROM purchases WHERE original_transaction_id = ? AND store = ?
            ORDER BY delivered_at, transaction_id
            """,
            [.text(originalTransactionId), .text(store.rawValue)]
        )
    }

    /// The store's purchases delivered at or after `since` without an event of `types` of
    /// the store on their transaction, oldest delivery first; Google Play's through
    /// `purchases_play_by_delivery` (``LedgerSchema/playSettlementIndex``), which holds its
    /// purchases only, then one probe of `history_events_by_transaction` for each: a subquery
    /// with `LIMIT 1` rather than `NOT EXISTS`, which PostgreSQL may plan as an anti-join
    /// walking every settling event. The store is written as a literal (one of ``Store``'s
    /// own raw values): a bound parameter would not let either planner use the partial index.
    static func purchases(
        store: Store, deliveredSince since: Date, without types: [HistoryEventType], limit: Int
    ) -> LedgerStatement {
        let unsettled =
            types.isEmpty
            ? ""
            : """
            AND (SELECT 1 FROM history_events e WHERE e.transaction_id = purchases.transaction_id
            AND e.store = ? AND e.type IN (\(Array(repeating: "?", count: types.count).joined(separator: ", ")))
            LIMIT 1) IS NULL
            """
        let typeArguments: [SQLArgument] =
            types.isEmpty ? [] : [.text(store.rawValue)] + types.map { .text($0.rawValue) }
        return LedgerStatement(
            """
            SELECT \(PurchaseTable.columns) FROM purchases WHERE store = '\(store.rawValue)' AND delivered_at >= ? \
            \(unsettled)
            ORDER BY delivered_at, transaction_id
            LIMIT ?
            """,
            [.timestamp(since)] + typeArguments + [.integer(Int64(limit))]
        )
    }

    /// One row (`known`) when anything of the player's is recorded, none otherwise.
    static func knowsPlayer(_ playerId: String) -> LedgerStatement {
        let tables = ["orders", "purchases", "balances", "history_events", "consumption_consents"]
        return LedgerStatement(
            "SELECT 1 AS known WHERE "
                + tables.map { "EXISTS (SELECT 1 FROM \($0) WHERE player_id = ?)" }.joined(separator: " OR "),
            Array(repeating: .text(playerId), count: tables.count)
        )
    }

    /// `player_id` in byte order on both databases.
    private static func byteOrder(_ dialect: Dialect) -> String {
        dialect == .postgres ? "player_id COLLATE \"C\"" : "player_id"
    }

    /// Player ids (of orders, purchases and balances: `known_players`,
    /// ``LedgerSchema/knownPlayers``) whose ASCII-lowercased form contains `folded` (already
    /// ASCII-lowercased): equal first, then starting with it, then shorter first, then in
    /// byte order; at most `limit`. PostgreSQL's `lower` under the "C" collation folds ASCII
    /// letters only, as SQLite's does.
    ///
    /// Only the players whose ids hold the query's trigrams are read: on PostgreSQL through
    /// `known_players_trigrams`, which serves `LIKE` on exactly this `lower(…)` (the pattern's
    /// `%`, `_` and `\` escaped by `\`, PostgreSQL's default escape); a query whose letters
    /// and digits give no trigram (`er`, `-_-`: `pg_trgm` takes trigrams of words only)
    /// reads the whole index. On SQLite through the FTS5 table
    /// `known_players_search` with a phrase query (its trigram tokenizer folds case beyond
    /// ASCII, so it finds a superset, which `instr` narrows to the same players); a query of
    /// one or two characters, which the tokenizer cannot serve, walks `known_players`.
    static func players(containing folded: String, limit: Int, dialect: Dialect) -> LedgerStatement {
        let lowered = dialect == .postgres ? "lower(player_id COLLATE \"C\")" : "lower(player_id)"
        let position = dialect == .postgres ? "strpos(\(lowered), ?)" : "instr(\(lowered), ?)"
        let source: String
        let filter: String
        let filterArguments: [SQLArgument]
        switch dialect {
        case .postgres:
            source = "known_players"
            filter = "\(lowered) LIKE ?"
            filterArguments = [.text("%" + escaping(["\\", "%", "_"], with: "\\", in: folded) + "%")]
        case .sqlite where folded.unicodeScalars.count >= 3:
            source = "known_players_search"
            filter = "known_players_search MATCH ? AND \(position) > 0"
            let phrase = "\"" + escaping(["\""], with: "\"", in: folded) + "\""  // `"` doubled in an FTS5 string
            filterArguments = [.text(phrase), .text(folded)]
        case .sqlite:
            source = "known_players"
            filter = "\(position) > 0"
            filterArguments = [.text(folded)]
        }
        return LedgerStatement(
            """
            SELECT player_id FROM \(source)
            WHERE \(filter)
            ORDER BY CASE WHEN \(lowered) = ? THEN 0 WHEN \(position) = 1 THEN 1 ELSE 2 END,
                length(player_id), \(byteOrder(dialect))
            LIMIT ?
            """,
            filterArguments + [.text(folded), .text(folded), .integer(Int64(limit))]
        )
    }

    /// `text` with each of `scalars` preceded by `escape`, scalar by scalar (a `%` that a
    /// combining mark follows is escaped too, though it is part of a longer character).
    private static func escaping(_ scalars: Set<Unicode.Scalar>, with escape: Unicode.Scalar, in text: String)
        -> String
    {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalars.contains(scalar) { escaped.append(escape) }
            escaped.append(scalar)
        }
        return String(escaped)
    }

    /// Up to `limit` player ids with a character outside ASCII (more bytes than
    /// characters), in byte order, through the partial index `known_players_outside_ascii`
    /// (only those ids). Players are those of ``players(containing:limit:dialect:)``.
    static func players(outsideASCIILimit limit: Int, dialect: Dialect) -> LedgerStatement {
        let bytes = dialect == .postgres ? "octet_length(player_id)" : "length(CAST(player_id AS BLOB))"
        return LedgerStatement(
            """
            SELECT player_id FROM known_players
            WHERE length(player_id) <> \(bytes)
            ORDER BY \(byteOrder(dialect))
            LIMIT ?
            """,
            [.integer(Int64(limit))]
        )
    }

    /// `text` with the ASCII letters A to Z lowercased and everything else kept, as both
    /// databases' `lower` does in ``players(containing:limit:dialect:)``.
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// ``timeline(playerId:)``'s events with ids below `beforeId`, newest first, at most
    /// `limit`, only of `types` when given (not empty). Each part reads its index newest first
    /// (`history_events_by_player_id`, `player_unowned_events_by_id`; for
    /// ``HistoryEventType/notificationTypes`` the own part reads
    /// `history_events_notifications_by_player`) until it has `limit`. The types are literals
    /// (``typeCondition(_:_:)``), which a partial index's condition needs. SQLite, which keeps
    /// no statistics here, rates the partial index and `history_events_by_player_id` (the
    /// same columns) alike and took either from one run to the next: it is named.
    static func timelineNewestFirst(
        playerId: String, beforeId: Int64, limit: Int, types: [HistoryEventType]?, dialect: Dialect
    ) -> LedgerStatement {
        let notifications = LedgerSchema.notificationsByPlayer.name
        let ownTable =
            dialect == .sqlite && types == HistoryEventType.notificationTypes
            ? "history_events INDEXED BY \(notifications)" : "history_events"
        var typeFilter = (own: "", unowned: "")
        if let types {
            typeFilter = (
                " AND " + typeCondition("history_events.type", types),
                " AND " + typeCondition("player_unowned_events.type", types)
            )
        }
        let part: [SQLArgument] = [.text(playerId), .integer(beforeId), .integer(Int64(limit))]
        return LedgerStatement(
            """
            \(ownEventsOfPlayer(where: "history_events.id < ?" + typeFilter.own, orderedBy: "id DESC", from: ownTable))
            UNION ALL
            \(unownedEventsOfPlayer(
                where: "player_unowned_events.event_id < ?" + typeFilter.unowned, orderedBy: "player_unowned_events.event_id DESC"))
            ORDER BY id DESC
            LIMIT ?
            """,
            part + part + [.integer(Int64(limit))]
        )
    }

    /// `column IN ('…', …)`: `types` as SQL string literals, in their order (quotes doubled).
    /// For ``HistoryEventType/notificationTypes`` on `type` it is the condition of
    /// `history_events_notifications_by_player`.
    static func typeCondition(_ column: String, _ types: [HistoryEventType]) -> String {
        let literals = types.map { "'" + $0.rawValue.replacingOccurrences(of: "'", with: "''") + "'" }
        return "\(column) IN (\(literals.joined(separator: ", ")))"
    }

    /// Per store's transaction with `awaiting_report` events and no purchase, first learned of at
    /// or before `learnedBefore`: the first and last event times, their count, and the
    /// first and latest events' details; oldest first, at most `limit`. The transactions come
    /// from `owed_transactions` (``LedgerSchema/owedTransactions``), each checked for a
    /// purchase (``owedRows``); only the listed ones' events are read, through
    /// `history_events_by_transaction`. `CROSS JOIN` keeps SQLite's loop on the listed rows:
    /// with a plain join it walked every `awaiting_report` event by `history_events_by_type`
    /// (4 s at a million purchases, each announced first); PostgreSQL plans it as any join.
    static func owedTransactions(learnedBefore: Date, limit: Int) -> LedgerStatement {
        LedgerStatement(
            """
            WITH owed AS (
                SELECT transaction_id, store, first_seen_at FROM owed_transactions
                WHERE \(owedRows)
                ORDER BY first_seen_at, transaction_id, store
                LIMIT ?
            ), reports AS (
                SELECT owed.transaction_id, owed.store, owed.first_seen_at,
                       MAX(history_events.created_at) AS last_seen_at, COUNT(*) AS attempts,
                       MIN(history_events.id) AS first_id, MAX(history_events.id) AS latest_id
                FROM owed CROSS JOIN history_events
                WHERE history_events.transaction_id = owed.transaction_id AND history_events.type = ?
                  AND \(storeOfEvent) = owed.store
                GROUP BY owed.transaction_id, owed.store, owed.first_seen_at
            )
            SELECT reports.transaction_id, reports.store, reports.first_seen_at, reports.last_seen_at,
                   reports.attempts, first_event.detail AS first_detail, latest_event.detail AS latest_detail
            FROM reports
            JOIN history_events first_event ON first_event.id = reports.first_id
            JOIN history_events latest_event ON latest_event.id = reports.latest_id
            ORDER BY reports.first_seen_at, reports.transaction_id, reports.store
            """,
            [
                .timestamp(learnedBefore), .integer(Int64(limit)), .text(HistoryEventType.awaitingReport.rawValue),
            ]
        )
    }

    /// The rows of `owed_transactions` owed now and first reported at or before the one
    /// argument it takes: a row whose transaction a purchase holds (PostgreSQL's triggers
    /// can leave one when its report and its delivery commit at once) is left out.
    private static let owedRows = """
        first_seen_at <= ? AND NOT EXISTS (
                    SELECT 1 FROM purchases WHERE purchases.transaction_id = owed_transactions.transaction_id
                    AND purchases.store = owed_transactions.store)
        """

    /// Open (`created`) orders for `productId` created from `createdFrom` to `createdTo`,
    /// and the order whose token is `appAccountToken` whatever its product, time or status:
    /// that one first, then newest first, at most `limit`. The two are found apart (an `OR`
    /// of the two would walk every order): open orders by `orders_open_by_product`
    /// (``LedgerSchema/historyIndexes``), the token's by its UNIQUE index.
    static func ownerCandidates(
        productId: String, appAccountToken: String?, createdFrom: Date, createdTo: Date, limit: Int
    ) -> LedgerStatement {
        // No token matches no order: tokens are stored lowercased and never empty.
        let token = SQLArgument.text(appAccountToken ?? "")
        return LedgerStatement(
            """
            SELECT \(OrderTable.columns) FROM (
                SELECT \(OrderTable.columns) FROM orders
                WHERE product_id = ? AND status = 'created' AND created_at >= ? AND created_at <= ?
                UNION
                SELECT \(OrderTable.columns) FROM orders WHERE app_account_token = ?
            ) candidates
            ORDER BY CASE WHEN app_account_token = ? THEN 0 ELSE 1 END, created_at DESC, order_id
            LIMIT ?
            """,
            [
                .text(productId), .timestamp(createdFrom), .timestamp(createdTo), token, token,
                .integer(Int64(limit)),
            ]
        )
    }

    /// How many transactions ``owedTransactions(learnedBefore:limit:)`` lists without a limit
    /// (one row, `owed`): a walk of the owed rows of `owed_transactions`, not of the ledger's
    /// reports.
    static func owedCount(learnedBefore: Date) -> LedgerStatement {
        LedgerStatement(
            "SELECT COUNT(*) AS owed FROM owed_transactions WHERE \(owedRows)", [.timestamp(learnedBefore)])
    }

    /// `manual_grant` events whose detail's JSON text contains `quotedVia` (`"via":"…"`,
    /// the keys sorted and nothing between them) recorded in `[notBefore, before)`, newest
    /// first, at most `limit`. The caller checks the decoded detail exactly.
    static func manualGrants(quotedVia: String, notBefore: Date, before: Date, limit: Int, dialect: Dialect)
        -> LedgerStatement
    {
        let contains = dialect == .postgres ? "strpos(detail, ?) > 0" : "instr(detail, ?) > 0"
        return LedgerStatement(
            """
            SELECT \(HistoryEventTable.columns) FROM history_events
            WHERE type = ? AND created_at >= ? AND created_at < ? AND \(contains)
            ORDER BY created_at DESC, id DESC
            LIMIT ?
            """,
            [
                .text(HistoryEventType.manualGrant.rawValue), .timestamp(notBefore), .timestamp(before),
                .text(quotedVia), .integer(Int64(limit)),
            ]
        )
    }

    /// Players with a negative balance or at least `minimumRefunds` refunded purchases,
    /// most refunded purchases first, at most `limit`: one row per negative balance (a row
    /// with NULL `item` for a player with none), with the player's refunded purchases and
    /// reversals.
    ///
    /// The refunded purchases are read from `player_refunds` (migration 19,
    /// ``LedgerSchema/refundCounts``), kept as purchases are written: the candidates with
    /// refunds are the first `limit` entries of its index `player_refunds_by_count` (in this
    /// statement's order, so no player of the `limit` listed is left out), joined with the
    /// players with a negative balance; the reversals are counted only for the `limit`
    /// players listed, each from that player's entries of `history_events_reversals_by_player`
    /// (migration 21, ``LedgerSchema/reversalIndex``: the event type is a literal, as in the
    /// index's condition). Grouping every refunded purchase of the ledger by player on each
    /// call cost 430 ms at ten million purchases (docs/PERFORMANCE.md "Years of history"),
    /// and counting each listed player's reversals among all their events 120 ms.
    static func refundSignals(minimumRefunds: Int, limit: Int) -> LedgerStatement {
        LedgerStatement(
            """
            WITH signalled AS (
                SELECT candidates.player_id, COALESCE(player_refunds.refunded_purchases, 0) AS refunded_purchases
                FROM (
                    SELECT player_id FROM balances WHERE amount < 0
                    UNION
                    SELECT player_id FROM (
                        SELECT player_id FROM player_refunds WHERE refunded_purchases >= ?
                        ORDER BY refunded_purchases DESC, player_id
                        LIMIT ?
                    ) most_refunded
                ) candidates
                LEFT JOIN player_refunds ON player_refunds.player_id = candidates.player_id
                ORDER BY refunded_purchases DESC, candidates.player_id
                LIMIT ?
            )
            SELECT signalled.player_id, signalled.refunded_purchases,
                   (SELECT COUNT(*) FROM history_events
                    WHERE history_events.player_id = signalled.player_id
                      AND history_events.type = '\(HistoryEventType.refundReversed.rawValue)') AS reversals,
                   balances.item, balances.amount
            FROM signalled
            LEFT JOIN balances ON balances.player_id = signalled.player_id AND balances.amount < 0
            ORDER BY signalled.refunded_purchases DESC, signalled.player_id, balances.item
            """,
            [
                .integer(Int64(max(minimumRefunds, 1))), .integer(Int64(limit)), .integer(Int64(limit)),
            ]
        )
    }

    /// Purchases whose flags' JSON text contains `quotedFlag` (the flag as a JSON string),
    /// newest delivery first, at most `limit`. The match is a case-sensitive substring
    /// search (no pattern characters); the caller checks the decoded flags exactly. Only
    /// purchases with a flag are read (`flags <> '[]'`: the partial index `purchases_flagged`,
    /// ``LedgerSchema/historyIndexes``).
    static func purchases(containingFlag quotedFlag: String, limit: Int, dialect: Dialect) -> LedgerStatement {
        let contains = dialect == .postgres ? "strpos(flags, ?) > 0" : "instr(flags, ?) > 0"
        return LedgerStatement(
            """
            SELECT \(PurchaseTable.columns) FROM purchases WHERE flags <> '[]' AND \(contains)
            ORDER BY delivered_at DESC, transaction_id DESC
            LIMIT ?
            """,
            [.text(quotedFlag), .integer(Int64(limit))]
        )
    }

    // MARK: Delivery activity

    /// The deliveries of each day and source of `delivery_days` (``LedgerSchema/deliveryDays``)
    /// from the UTC day `day` on (a range of its primary key), their shards added up, by day
    /// then source.
    static func deliveryDays(from day: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT day, source, CAST(SUM(deliveries) AS BIGINT) AS deliveries FROM delivery_days WHERE day >= ?
            GROUP BY day, source ORDER BY day, source
            """,
            [.integer(Int64(day))]
        )
    }

    /// How many deliveries of the UTC days from `day` on took each span from charge to
    /// delivery, by the bucket's lower bound (``LedgerSchema/deliveryDays``: the shards
    /// added up).
    static func deliveryLatencies(from day: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT lower_bound, CAST(SUM(deliveries) AS BIGINT) AS deliveries FROM delivery_latencies WHERE day >= ?
            GROUP BY lower_bound ORDER BY lower_bound
            """,
            [.integer(Int64(day))]
        )
    }

    /// The purchases charged on each UTC day from `day` on by product and quantity, of those
    /// delivered from `day` on (`purchase_days`, ``LedgerSchema/revenueDays``: a range of its
    /// primary key, the shards added up, rows at 0 left out), by day, product and quantity.
    static func purchaseDays(from day: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT day, product_id, quantity, CAST(SUM(purchases) AS BIGINT) AS purchases FROM purchase_days
            WHERE delivered_day >= ? AND day >= ?
            GROUP BY day, product_id, quantity HAVING SUM(purchases) <> 0 ORDER BY day, product_id, quantity
            """,
            [.integer(Int64(day)), .integer(Int64(day))]
        )
    }

    /// The purchases refunded on each UTC day from `day` on by product, quantity and share as
    /// they stand now (`refund_days`, ``LedgerSchema/revenueDays``: a range of its primary key,
    /// the shards added up, rows at 0 left out), in that order.
    static func refundDays(from day: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT day, product_id, quantity, refunded_share, CAST(SUM(purchases) AS BIGINT) AS purchases
            FROM refund_days WHERE day >= ?
            GROUP BY day, product_id, quantity, refunded_share HAVING SUM(purchases) <> 0
            ORDER BY day, product_id, quantity, refunded_share
            """,
            [.integer(Int64(day))]
        )
    }

    /// The events the overview counts as refunds and their reversals.
    static let refundEventTypes: [HistoryEventType] = [.refunded, .refundReversed]

    /// The `refunded` and `refund_reversed` events at or after `since` (type and time),
    /// oldest first, at most `limit`: on PostgreSQL the first entries of
    /// `history_events_refunds_by_time` from `since` on (``LedgerSchema/refundEventsIndex``),
    /// the types literals for its condition.
    static func refundEvents(since: Date, limit: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT type, created_at FROM history_events WHERE \(typeCondition("type", refundEventTypes))
              AND created_at >= ?
            ORDER BY created_at, id
            LIMIT ?
            """,
            [.timestamp(since), .integer(Int64(limit))]
        )
    }

    /// The unacknowledged outbox messages (`backlog`) and, of those, the ones whose last
    /// attempt failed (`failures`).
    static let outboxState = LedgerStatement(
        """
        SELECT COUNT(*) AS backlog,
               COALESCE(SUM(CASE WHEN attempts > 0 AND last_error IS NOT NULL THEN 1 ELSE 0 END), 0) AS failures
        FROM outbox WHERE delivered_at IS NULL
        """
    )
}
