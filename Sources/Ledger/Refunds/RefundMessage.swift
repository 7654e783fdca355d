import Foundation

/// The JSON body the outbox sends to the game server when the refunded share of a
/// delivered purchase changes: Apple refunded it (in whole or in part, or more of it) or
/// reversed a refund.
///
/// One message per change, enqueued in the same database transaction as the change's
/// ledger entries. Its idempotency key is ``idempotencyKey(store:transactionId:sequence:)``:
/// the receiver must deduplicate on it (the `Idempotency-Key` header). ``grants`` are the
/// signed amounts the change applied, so the messages of one transaction add up to the same
/// whatever order they arrive in.
public struct RefundMessage: Sendable, Hashable, Codable {
    /// `"refund"` when the refunded share grew (``grants`` negative or empty),
    /// `"refund_reversed"` when it shrank (``grants`` positive or empty).
    public var kind: String
    /// The player who holds the purchase.
    public var playerId: String
    /// The store that sold it (a ``Store`` raw value: `app_store`, `google_play`).
    public var store: String
    /// The store's transaction id.
    public var transactionId: String
    /// Apple's original transaction id.
    public var originalTransactionId: String
    /// The order the purchase fulfilled, if any.
    public var orderId: String?
    /// The App Store product id.
    public var productId: String
    /// 1 for the transaction's first change of refunded share, 2 for the second, and so on.
    public var sequence: Int
    /// The share refunded before this change, in milliunits (100,000 is all of it).
    public var previousRefundedShare: Int
    /// The share refunded after it: Apple's latest word.
    public var refundedShare: Int
    /// The signed amounts this change applied to the player's balances, item → amount
    /// (negative: taken back; positive: given back); items that did not move are absent.
    public var grants: Grants
    /// Why the share grew (Apple's revocation reason or the notification type); absent when
    /// it shrank.
    public var reason: String?
    /// Apple's environment string.
    public var environment: String

    /// The message announcing the change of `purchase` (as it stands after the change) from
    /// `previousRefundedShare`, which applied `grants`.
    public init(purchase: Purchase, previousRefundedShare: Int, grants: Grants, sequence: Int) {
        kind = purchase.refundedShare > previousRefundedShare ? "refund" : "refund_reversed"
        playerId = purchase.playerId
        store = purchase.store.rawValue
        transactionId = purchase.transactionId
        originalTransactionId = purchase.originalTransactionId
        orderId = purchase.orderId
        productId = purchase.productId
        self.sequence = sequence
        self.previousRefundedShare = previousRefundedShare
        refundedShare = purchase.refundedShare
        self.grants = grants
        reason = purchase.refundedShare > previousRefundedShare ? purchase.refundReason : nil
        environment = purchase.environment.rawValue
    }

    /// The outbox idempotency key of a transaction's `sequence`-th change of refunded share:
    /// `<key>:refund:<sequence>`, where the key is the store's key of the transaction id
    /// (``Store/key(_:)``, which is also a delivery's key).
    public static func idempotencyKey(store: Store, transactionId: String, sequence: Int) -> String {
        "\(store.key(transactionId)):refund:\(sequence)"
    }

    /// Decodes a message from an outbox payload.
    public static func decode(_ payload: Data) throws -> RefundMessage {
        try JSONDecoder().decode(RefundMessage.self, from: payload)
    }

    /// The JSON body (keys sorted, so equal messages have equal bytes).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}
