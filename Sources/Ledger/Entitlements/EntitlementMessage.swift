import Foundation

/// The JSON body the outbox sends to the game server when an entitlement changes: created,
/// changed by Apple's data, or moved to another player.
///
/// Dates are epoch milliseconds. The receiver must deduplicate on the outbox's idempotency
/// key: ``idempotencyKey(originalTransactionId:playerId:appleSignedDate:state:)`` for a
/// change, ``transferKey(store:originalTransactionId:playerId:at:)`` for a transfer (one message
/// for the new holder, one telling the previous holder it is no longer entitled).
public struct EntitlementMessage: Sendable, Hashable, Codable {
    /// Always `"entitlement"`.
    public var kind: String
    /// The player the message is about.
    public var playerId: String
    /// The store that sold the purchase behind it (a ``Store`` raw value).
    public var store: String
    /// What the product unlocks.
    public var entitlementId: String
    /// The product that backs it.
    public var productId: String
    /// The entitlement's state (an ``EntitlementState`` raw value).
    public var state: String
    /// Whether ``playerId`` is entitled now (by state and `until`, at the change); `false`
    /// for the previous holder of a transferred entitlement.
    public var entitled: Bool
    /// The first purchase of the chain, epoch milliseconds.
    public var since: Int64
    /// The end, epoch milliseconds; `null` when permanent.
    public var until: Int64?
    /// The transaction that backs it.
    public var transactionId: String
    /// Its key.
    public var originalTransactionId: String
    /// `"PURCHASED"` or `"FAMILY_SHARED"`.
    public var ownership: String
    /// Why it changed (notification type and subtype, `"reconciler"`, the delivery's
    /// source, or a transfer's reason).
    public var reason: String
    /// Apple's `signedDate` of the data behind the state, epoch milliseconds.
    public var appleSignedDate: Int64

    /// The message announcing `entitlement` as it stands at `now`, to `playerId` (its
    /// holder unless told otherwise; another player is told it is not entitled).
    public init(entitlement: Entitlement, reason: String, at now: Date, playerId: String? = nil) {
        kind = "entitlement"
        self.playerId = playerId ?? entitlement.playerId
        store = entitlement.store.rawValue
        entitlementId = entitlement.entitlementId
        productId = entitlement.productId
        state = entitlement.state.rawValue
        entitled = self.playerId == entitlement.playerId && entitlement.isEntitled(at: now)
        since = entitlement.since.ledgerMilliseconds
        until = entitlement.until?.ledgerMilliseconds
        transactionId = entitlement.transactionId
        originalTransactionId = entitlement.originalTransactionId
        ownership = entitlement.ownership.rawValue
        self.reason = reason
        appleSignedDate = entitlement.signedAt.ledgerMilliseconds
    }

    /// The key of a change:
    /// `entitlement:<key>:<playerId>:<appleSignedDate ms>:<state>:<transactionId>:<until ms or "permanent">`,
    /// where the key is the store's key of the original transaction id (``Store/key(_:)``).
    /// Two changes differ in one of these (Apple's signed date, the state, the backing
    /// transaction or the end), so neither is dropped as the other's duplicate.
    public static func idempotencyKey(of entitlement: Entitlement) -> String {
        let until = entitlement.until.map { String($0.ledgerMilliseconds) } ?? "permanent"
        return "entitlement:\(entitlement.store.key(entitlement.originalTransactionId)):\(entitlement.playerId):"
            + "\(entitlement.signedAt.ledgerMilliseconds):\(entitlement.state.rawValue):"
            + "\(entitlement.transactionId):\(until)"
    }

    /// The key of a transfer's message to `playerId`:
    /// `entitlement-transfer:<key>:<playerId>:<ms of the transfer>`, the key as for a change.
    public static func transferKey(store: Store, originalTransactionId: String, playerId: String, at date: Date)
        -> String
    {
        "entitlement-transfer:\(store.key(originalTransactionId)):\(playerId):\(date.ledgerMilliseconds)"
    }

    /// Decodes a message from an outbox payload.
    public static func decode(_ payload: Data) throws -> EntitlementMessage {
        try JSONDecoder().decode(EntitlementMessage.self, from: payload)
    }

    /// The JSON body (keys sorted, so equal messages have equal bytes; `until` always
    /// present, `null` when permanent).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    private enum CodingKeys: String, CodingKey {
        case kind, playerId, store, entitlementId, productId, state, entitled, since, until, transactionId
        case originalTransactionId, ownership, reason, appleSignedDate
    }

    /// Encodes every key, `until` as `null` when permanent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(playerId, forKey: .playerId)
        try container.encode(store, forKey: .store)
        try container.encode(entitlementId, forKey: .entitlementId)
        try container.encode(productId, forKey: .productId)
        try container.encode(state, forKey: .state)
        try container.encode(entitled, forKey: .entitled)
        try container.encode(since, forKey: .since)
        try container.encode(until, forKey: .until)
        try container.encode(transactionId, forKey: .transactionId)
        try container.encode(originalTransactionId, forKey: .originalTransactionId)
        try container.encode(ownership, forKey: .ownership)
        try container.encode(reason, forKey: .reason)
        try container.encode(appleSignedDate, forKey: .appleSignedDate)
    }
}
