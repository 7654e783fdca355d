/// What ``HistoryFill`` wrote: the counts of what it generated and how long it took.
public struct HistoryFillSummary: Codable, Sendable, Hashable {
    /// Players with at least one order.
    public var players: Int
    /// Purchases delivered (renewals included).
    public var purchases: Int
    /// Orders, paid or not.
    public var orders: Int
    /// Orders never paid.
    public var unpaidOrders: Int
    /// Purchases refunded, wholly or in part.
    public var refunds: Int
    /// Of ``refunds``, those refunded in part.
    public var partialRefunds: Int
    /// Subscription renewals among ``purchases``.
    public var renewals: Int
    /// Entitlement rows.
    public var entitlements: Int
    /// History events (client events and notifications received included).
    public var historyEvents: Int
    /// Of ``historyEvents``, the devices' client events.
    public var clientEvents: Int
    /// App Store Server Notifications recorded.
    public var notifications: Int
    /// Of ``historyEvents``, `awaiting_report` events: notifications that came before the
    /// device's report and named no known order (each settled by the report since).
    public var awaitingReports: Int
    /// Players with a consumption consent recorded.
    public var consents: Int
    /// Audit log entries.
    public var auditEntries: Int
    /// The player with the most purchases.
    public var whale: String
    /// The whale's purchases.
    public var whalePurchases: Int
    /// Wall-clock seconds the fill took.
    public var seconds: Double
}
