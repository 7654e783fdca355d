import Foundation

extension SQLLedgerStore {
    public func purchases(store: Store, originalTransactionId: String) async throws -> [Purchase] {
        try await read(
            .rows(LedgerSQL.purchases(store: store, originalTransactionId: originalTransactionId), Purchase.init(row:)))
    }

    public func purchases(store: Store, deliveredSince: Date, without types: [HistoryEventType], limit: Int)
        async throws -> [Purchase]
    {
        guard limit > 0 else { return [] }
        let statement = LedgerSQL.purchases(
            store: store, deliveredSince: deliveredSince.ledgerNormalized, without: types, limit: limit)
        return try await read(.rows(statement, Purchase.init(row:)))
    }

    public func knowsPlayer(_ playerId: String) async throws -> Bool {
        try await read(.first(LedgerSQL.knowsPlayer(playerId)) { _ in () }) != nil
    }

    public func players(resembling query: String, limit: Int) async throws -> [String] {
        let folded = LedgerSQL.asciiLowercased(query)
        guard limit > 0, !folded.isEmpty else { return [] }
        return try await read(
            .rows(LedgerSQL.players(containing: folded, limit: limit, dialect: dialect)) {
                try $0.requiredText("player_id")
            })
    }

    public func players(outsideASCIILimit limit: Int) async throws -> [String] {
        guard limit > 0 else { return [] }
        return try await read(
            .rows(LedgerSQL.players(outsideASCIILimit: limit, dialect: dialect)) { try $0.requiredText("player_id") })
    }

    public func timelineNewestFirst(playerId: String, beforeId: Int64?, limit: Int, types: [HistoryEventType]?)
        async throws -> [HistoryEvent]
    {
        guard limit > 0, types?.isEmpty != true else { return [] }
        let statement = LedgerSQL.timelineNewestFirst(
            playerId: playerId, beforeId: beforeId ?? .max, limit: limit, types: types, dialect: dialect)
        return try await read(.rows(statement, HistoryEvent.init(row:)))
    }

    public func owedTransactions(learnedBefore: Date, limit: Int) async throws -> [OwedTransaction] {
        guard limit > 0 else { return [] }
        let statement = LedgerSQL.owedTransactions(learnedBefore: learnedBefore.ledgerNormalized, limit: limit)
        return try await read(
            .rows(statement) { row in
                let first = try Self.eventDetail(row, "first_detail")
                let latest = try Self.eventDetail(row, "latest_detail")
                var owed = OwedTransaction(
                    store: try row.enumeration(Store.self, "store"),
                    transactionId: try row.requiredText("transaction_id"),
                    productId: first["productId"] ?? latest["productId"],
                    reason: latest["reason"],
                    source: latest["source"],
                    firstSeenAt: try row.requiredTimestamp("first_seen_at"),
                    lastSeenAt: try row.requiredTimestamp("last_seen_at"),
                    attempts: Int(try row.requiredInteger("attempts"))
                )
                owed.read(charge: latest)
                return owed
            })
    }

    public func ownerCandidates(
        productId: String, appAccountToken: String?, createdFrom: Date, createdTo: Date, limit: Int
    ) async throws -> [Order] {
        guard limit > 0 else { return [] }
        let statement = LedgerSQL.ownerCandidates(
            productId: productId, appAccountToken: appAccountToken, createdFrom: createdFrom.ledgerNormalized,
            createdTo: createdTo.ledgerNormalized, limit: limit)
        return try await read(.rows(statement, Order.init(row:)))
    }

    public func owedCount(learnedBefore: Date) async throws -> Int {
        let statement = LedgerSQL.owedCount(learnedBefore: learnedBefore.ledgerNormalized)
        return try await read(.first(statement) { Int(try $0.requiredInteger("owed")) }) ?? 0
    }

    public func manualGrants(via: String, notBefore: Date?, before: Date?, limit: Int) async throws -> [HistoryEvent] {
        guard limit > 0 else { return [] }
        let quotedVia = "\"via\":" + (try LedgerJSON.text(via))
        let statement = LedgerSQL.manualGrants(
            quotedVia: quotedVia, notBefore: (notBefore ?? .distantPast).ledgerNormalized,
            before: (before ?? .distantFuture).ledgerNormalized, limit: limit, dialect: dialect)
        // The text match finds every such event; one whose other detail merely quotes it is
        // dropped here.
        return try await read(.rows(statement, HistoryEvent.init(row:))).filter { $0.detail["via"] == via }
    }

    public func refundSignals(minimumRefunds: Int, limit: Int) async throws -> [RefundSignal] {
        guard limit > 0 else { return [] }
        let rows = try await read(
            .rows(LedgerSQL.refundSignals(minimumRefunds: minimumRefunds, limit: limit)) { row in
                (
                    signal: RefundSignal(
                        playerId: try row.requiredText("player_id"), negativeBalances: [:],
                        refundedPurchases: Int(try row.requiredInteger("refunded_purchases")),
                        reversals: Int(try row.requiredInteger("reversals"))),
                    item: try row.text("item"), amount: try row.integer("amount")
                )
            })
        // One row per negative balance, a player's rows together: fold them in order.
        var signals: [RefundSignal] = []
        for row in rows {
            if signals.last?.playerId != row.signal.playerId { signals.append(row.signal) }
            if let item = row.item, let amount = row.amount {
                signals[signals.count - 1].negativeBalances[item] = amount
            }
        }
        return signals
    }

    public func purchases(flagged flag: String, limit: Int) async throws -> [Purchase] {
        guard limit > 0 else { return [] }
        let statement = LedgerSQL.purchases(containingFlag: try LedgerJSON.text(flag), limit: limit, dialect: dialect)
        // The text match finds every purchase with the flag; a flag whose JSON text merely
        // occurs inside another flag's is dropped here.
        return try await read(.rows(statement, Purchase.init(row:))).filter { $0.flags.contains(flag) }
    }

    public func deliveryActivity(since: Date, limit: Int) async throws -> DeliveryActivity {
        let since = since.ledgerNormalized
        let limit = max(limit, 0)
        let firstDay = DeliveryDayCount.day(since)
        let days = LedgerOperation.rows(LedgerSQL.deliveryDays(from: firstDay)) { row in
            DeliveryDayCount(
                day: Int(try row.requiredInteger("day")), source: try row.enumeration(DeliverySource.self, "source"),
                deliveries: Int(try row.requiredInteger("deliveries")))
        }
        let latencies = LedgerOperation.rows(LedgerSQL.deliveryLatencies(from: firstDay)) { row in
            DeliveryLatencyCount(
                lowerBound: try row.requiredInteger("lower_bound"),
                deliveries: Int(try row.requiredInteger("deliveries")))
        }
        let purchases = LedgerOperation.rows(LedgerSQL.purchaseDays(from: firstDay)) { row in
            PurchaseDayCount(
                day: Int(try row.requiredInteger("day")), productId: try row.requiredText("product_id"),
                quantity: Int(try row.requiredInteger("quantity")), purchases: Int(try row.requiredInteger("purchases"))
            )
        }
        let refunded = LedgerOperation.rows(LedgerSQL.refundDays(from: firstDay)) { row in
            RefundDayCount(
                day: Int(try row.requiredInteger("day")), productId: try row.requiredText("product_id"),
                quantity: Int(try row.requiredInteger("quantity")),
                refundedShare: Int(try row.requiredInteger("refunded_share")),
                purchases: Int(try row.requiredInteger("purchases")))
        }
        // Six statements whose figures must agree (a delivery refunded between two of
        // them would count in one and not the other): one snapshot.
        return try await readSnapshot(
            days.then { days in latencies.map { (days: days, latencies: $0) } }
                .then { counts in purchases.map { (counts: counts, purchases: $0) } }
                .then { read in refunded.map { (read: read, refunded: $0) } }
                .then { read in
                    LedgerOperation.rows(LedgerSQL.refundEvents(since: since, limit: limit)) { row in
                        (type: try row.requiredText("type"), at: try row.requiredTimestamp("created_at"))
                    }
                    .then { events in
                        .statement(LedgerSQL.outboxState) { rows in
                            guard let row = rows.first else {
                                throw LedgerError.corruptRow("outbox count returned nothing")
                            }
                            return .done(
                                DeliveryActivity(
                                    deliveryDays: read.read.counts.days, latencies: read.read.counts.latencies,
                                    purchaseDays: read.read.purchases, refundDays: read.refunded,
                                    refunds: events.filter { $0.type == HistoryEventType.refunded.rawValue }.map(\.at),
                                    reversals: events.filter { $0.type == HistoryEventType.refundReversed.rawValue }
                                        .map(\.at),
                                    outboxBacklog: Int(try row.requiredInteger("backlog")),
                                    webhookFailures: Int(try row.requiredInteger("failures"))))
                        }
                    }
                })
    }

    /// An event's detail, decoded from the JSON text in `column`.
    private static func eventDetail(_ row: any LedgerRow, _ column: String) throws -> [String: String] {
        try LedgerJSON.decode([String: String].self, from: try row.requiredText(column), column: column)
    }
}
