import Foundation
import Ledger

/// One change of an entitlement as the ledger's history recorded it
/// (``HistoryEventType/entitlementChanged``): who, which chain, what state, until when,
/// and when the ledger wrote it.
public struct EntitlementChange: Codable, Hashable, Sendable {
    /// The holder whose timeline has it.
    public var playerId: String
    /// The chain.
    public var originalTransactionId: String
    /// The product backing the entitlement after the change.
    public var productId: String?
    /// The transaction backing the entitlement after the change.
    public var transactionId: String?
    /// The state after the change.
    public var state: EntitlementState
    /// The end after the change; `nil` when permanent.
    public var until: Date?
    /// When the ledger wrote it.
    public var at: Date
    /// Why: the notification's type and subtype, `reconciler`, a delivery's source.
    public var reason: String?
    /// When Apple signed the data the change applied.
    public var signedAt: Date?
    /// The history event's id: the order in which changes of one chain were written (each
    /// writes under the chain's lock), which ``at`` (the time its transaction began) is not.
    public var sequence: Int64?

    /// Creates a change.
    public init(
        playerId: String, originalTransactionId: String, productId: String? = nil, transactionId: String? = nil,
        state: EntitlementState, until: Date?, at: Date, reason: String? = nil, signedAt: Date? = nil,
        sequence: Int64? = nil
    ) {
        self.playerId = playerId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.transactionId = transactionId
        self.state = state
        self.until = until
        self.at = at
        self.reason = reason
        self.signedAt = signedAt
        self.sequence = sequence
    }

    /// The change a history event records, or `nil` when it is no
    /// ``HistoryEventType/entitlementChanged`` event or its detail is not one the ledger
    /// writes (no player, no chain, an unknown state, an `until` that is not milliseconds).
    public init?(_ event: HistoryEvent) {
        guard event.type == .entitlementChanged, let playerId = event.playerId,
            let originalTransactionId = event.detail["originalTransactionId"], !originalTransactionId.isEmpty,
            let state = event.detail["state"].flatMap(EntitlementState.init(rawValue:))
        else { return nil }
        var until: Date?
        if let raw = event.detail["until"] {
            guard let milliseconds = Int64(raw) else { return nil }
            until = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        self.init(
            playerId: playerId, originalTransactionId: originalTransactionId, productId: event.detail["productId"],
            transactionId: event.transactionId, state: state, until: until, at: event.createdAt,
            reason: event.detail["reason"],
            signedAt: event.detail["appleSignedDate"].flatMap(Int64.init).map {
                Date(timeIntervalSince1970: Double($0) / 1000)
            }, sequence: event.id)
    }
}
