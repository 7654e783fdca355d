import Foundation

/// One entry of the append-only history that support staff read: every state change and
/// every rejection, with enough detail to explain it.
public struct HistoryEvent: Sendable, Hashable, Codable {
    /// The event's id once stored (increasing); `nil` for an event not yet appended.
    public var id: Int64?
    /// What happened.
    public var type: HistoryEventType
    /// The player concerned, when known.
    public var playerId: String?
    /// The order concerned, if any.
    public var orderId: String?
    /// The store's transaction concerned, if any.
    public var transactionId: String?
    /// The store of ``transactionId``; `nil` for an event about no transaction. (Events
    /// recorded before the ledger named stores read as ``Store/appStore``.)
    public var store: Store?
    /// Details as flat strings (stored as a JSON object).
    public var detail: [String: String]
    /// When it happened (server time).
    public var createdAt: Date

    /// Creates an event.
    public init(
        id: Int64? = nil,
        type: HistoryEventType,
        playerId: String? = nil,
        orderId: String? = nil,
        transactionId: String? = nil,
        store: Store? = nil,
        detail: [String: String] = [:],
        createdAt: Date
    ) {
        self.id = id
        self.type = type
        self.playerId = playerId
        self.orderId = orderId
        self.transactionId = transactionId
        self.store = transactionId == nil ? nil : store
        self.detail = detail
        self.createdAt = createdAt
    }
}
