import Foundation

/// The reads behind the support console's search, work queues and overview.
public protocol SupportReads: Sendable {
    /// The purchases with this original transaction id, oldest delivery first.
    func purchases(store: Store, originalTransactionId: String) async throws -> [Purchase]

    /// The store's purchases delivered at or after `deliveredSince` whose transaction has no
    /// history event of any of `types` for that store, oldest delivery first, at most
    /// `limit`: the follow-ups still owed (Google Play's acknowledgements).
    func purchases(store: Store, deliveredSince: Date, without types: [HistoryEventType], limit: Int)
        async throws -> [Purchase]

    /// Whether the ledger knows the player at all: an order, a purchase, a balance, a
    /// history event or a consent of theirs.
    func knowsPlayer(_ playerId: String) async throws -> Bool

    /// Up to `limit` player ids that contain `query` with ASCII letters' case ignored (the
    /// same on both databases): the id equal to it but for case first, then ids starting with
    /// it, then the rest, shorter ids first. Players are those with an order, a purchase or a
    /// balance. An empty `query` finds nobody.
    func players(resembling query: String, limit: Int) async throws -> [String]

    /// Up to `limit` player ids with a character outside ASCII (`张三`, `émile`), in byte
    /// order: what a search compares with a romanized name (`zhangsan`).
    func players(outsideASCIILimit limit: Int) async throws -> [String]

    /// Up to `limit` events of the player's timeline (``LedgerStore/timeline(playerId:)``'s
    /// events), newest first, with ids below `beforeId` (from the newest when `nil`); only
    /// events of `types` when given.
    func timelineNewestFirst(playerId: String, beforeId: Int64?, limit: Int, types: [HistoryEventType]?)
        async throws -> [HistoryEvent]

    /// Transactions the server knows Apple charged for and no player received
    /// (``HistoryEventType`` `awaiting_report` events of transactions with no purchase),
    /// first learned of at or before `learnedBefore`, oldest first, at most `limit`.
    func owedTransactions(learnedBefore: Date, limit: Int) async throws -> [OwedTransaction]

    /// The orders that may be whose an owed charge is: open (not fulfilled) orders for
    /// `productId` created from `createdFrom` to `createdTo`, and the order whose app
    /// account token is `appAccountToken` (the strongest candidate, whatever its product,
    /// time or status) first; then newest first, at most `limit`.
    func ownerCandidates(
        productId: String, appAccountToken: String?, createdFrom: Date, createdTo: Date, limit: Int
    ) async throws -> [Order]

    /// How many transactions ``owedTransactions(learnedBefore:limit:)`` would list without a
    /// limit.
    func owedCount(learnedBefore: Date) async throws -> Int

    /// ``HistoryEventType/manualGrant`` events that came by `via` (their `via` detail, e.g.
    /// ``ManualGrantPath/adminAPI``) recorded at or after `notBefore` (from the first when
    /// `nil`) and before `before` (to the last when `nil`), newest first, at most `limit`.
    func manualGrants(via: String, notBefore: Date?, before: Date?, limit: Int) async throws -> [HistoryEvent]

    /// Players with a balance below zero or at least `minimumRefunds` refunded purchases,
    /// most refunds first, at most `limit`.
    func refundSignals(minimumRefunds: Int, limit: Int) async throws -> [RefundSignal]

    /// Purchases carrying `flag` (e.g. ``PurchaseFlag/sandboxInProduction``), newest
    /// delivery first, at most `limit`.
    func purchases(flagged flag: String, limit: Int) async throws -> [Purchase]

    /// What happened from `since`'s UTC day on, read from counts kept per day (none of it
    /// reads a row per delivery or per refunded purchase): every delivery counted per day and
    /// source (`delivery_days`), and per bucket of its time from charge to delivery
    /// (`delivery_latencies`), the purchases delivered counted per day of purchase, product
    /// and quantity (`purchase_days`), the purchases refunded counted per day of refund,
    /// product, quantity and share (`refund_days`); and at most `limit` refund and reversal
    /// events from `since` on together (oldest first), and the webhook outbox as it stands.
    func deliveryActivity(since: Date, limit: Int) async throws -> DeliveryActivity

    /// What explains the player's wallet over their whole history, read in one snapshot: per
    /// item and kind the sum of their ledger entries and their purchases counted per product,
    /// quantity and refunded share (both kept as they are written, migration 24), and how
    /// many manual grants (postings, by ``ManualPostingKey``), spends and orders they have.
    func playerTotals(playerId: String) async throws -> PlayerTotals

    /// The player's newest orders, newest first, at most `limit`.
    func newestOrders(playerId: String, limit: Int) async throws -> [Order]

    /// The player's newest purchases, newest delivery first, at most `limit`.
    func newestPurchases(playerId: String, limit: Int) async throws -> [Purchase]

    /// The ``LedgerEntryKind/manual`` entries of the player's newest `limit` manual grants
    /// (postings, by ``ManualPostingKey``: the postings ``playerTotals(playerId:)`` counts),
    /// oldest posting first, each posting's entries together.
    func newestManualEntries(playerId: String, limit: Int) async throws -> [LedgerEntry]
}
