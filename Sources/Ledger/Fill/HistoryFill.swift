import Foundation

/// Fills a ledger with years of realistic history, fast, for measuring what every path
/// costs when the ledger is old (`storekeeper fill-ledger`): players with the skew of a real
/// game (one whale, a few heavy buyers, many who buy once), their orders (one in eight never
/// paid), purchases of every product kind with grants, ledger entries and balances, refunds
/// whole and partial, subscription renewals, entitlements, client events, notifications,
/// consents and support's audit entries, spread over three years before `now`.
///
/// It writes through the ledger's own schema (``LedgerStore/migrate()`` first) but past its
/// rules, in bulk (``BulkLoading``: SQLite's prepared inserts in large transactions,
/// PostgreSQL's `COPY`; the non-unique indexes built once at the end), into a ledger it
/// expects empty: run it on a new database, never a served one, and throw away one whose
/// fill failed (it may lack indexes).
public enum HistoryFill {
    /// Purchases gathered before a batch is written.
    static let batchPurchases = 20_000

    /// Fills `store` with `purchases` purchases (renewals included) and their history.
    ///
    /// - Parameters:
    ///   - products: What players buy; at least one consumable.
    ///   - random: The draws; the same generator state gives the same ledger.
    ///   - now: The newest time in the history.
    /// - Throws: ``HistoryFillError`` for a store that cannot take rows in bulk, one that
    ///   already holds orders or purchases, or a catalog without a consumable; the
    ///   database's error when a write failed (the batches before it stay written).
    public static func fill<Random: RandomNumberGenerator>(
        _ store: any LedgerStore, purchases: Int, products: [FillProduct], random: Random, now: Date = Date()
    ) async throws -> HistoryFillSummary {
        guard let loader = store as? any BulkLoading else {
            throw HistoryFillError("this ledger store cannot be filled in bulk")
        }
        guard products.contains(where: { $0.kind == .consumable }) else {
            throw HistoryFillError("the catalog sells no consumable")
        }
        guard purchases >= 0 else { throw HistoryFillError("the number of purchases must not be negative") }
        let started = ContinuousClock.now
        try await store.migrate()
        guard try await !loader.holdsHistory() else {
            throw HistoryFillError("the ledger already holds orders or purchases: fill a new database")
        }
        var generator = HistoryGenerator(random: random, products: products, now: now)
        var batch = HistoryFillBatch()
        let restore = try await loader.beginBulkLoad(of: batch.tables.map(\.table))
        var written = 0
        var player = 0
        let whale = Self.whalePurchases(of: purchases)
        // The database writes one batch while the next is generated.
        var loading: Task<Void, any Error>?
        while written < purchases {
            let count = player == 0 ? whale : min(purchases - written, generator.purchaseCount(below: whale))
            let before = generator.summary.purchases
            generator.player(player, purchases: count, into: &batch)
            written += generator.summary.purchases - before
            player += 1
            if batch.purchases.count >= batchPurchases || written >= purchases {
                try await loading?.value
                let tables = batch.tables
                loading = Task { try await loader.bulkLoad(tables) }
                batch = HistoryFillBatch()
            }
        }
        try await loading?.value
        try await loader.finishBulkLoad(rebuilding: restore)
        var summary = generator.summary
        let elapsed = ContinuousClock.now - started
        summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return summary
    }

    /// The whale's purchases: one in two hundred of all, at least 20 (or all, when fewer),
    /// at most 50,000 (a player buying a few times a day for three years).
    static func whalePurchases(of purchases: Int) -> Int {
        min(purchases, max(20, min(50_000, purchases / 200)))
    }
}

/// Why ``HistoryFill`` could not fill a ledger.
public struct HistoryFillError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}
