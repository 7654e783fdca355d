import Foundation

/// A message for the game server's webhook, enqueued in the same database transaction as
/// the delivery or the change of refunded share it announces (transactional outbox).
public struct OutboxMessage: Sendable, Hashable, Codable {
    /// The message's id.
    public var id: Int64
    /// The key the receiver deduplicates on: the store's key of the transaction id
    /// (``Store/key(_:)``: an App Store id as it is) for a delivery,
    /// ``RefundMessage/idempotencyKey(store:transactionId:sequence:)`` for a change of its
    /// refunded share, ``EntitlementMessage/idempotencyKey(of:)``
    /// or ``EntitlementMessage/transferKey(store:originalTransactionId:playerId:at:)`` for an
    /// entitlement's change.
    public var idempotencyKey: String
    /// The player concerned.
    public var playerId: String
    /// The transaction concerned.
    public var transactionId: String?
    /// The body to send: JSON, a ``DeliveryMessage``, a ``RefundMessage`` or an
    /// ``EntitlementMessage`` (told apart by their `kind`).
    public var payload: Data
    /// How many sends have failed so far.
    public var attempts: Int
    /// When it is due. For a message handed out by
    /// ``LedgerStore/dueOutboxMessages(now:limit:)`` this is the end of the worker's claim:
    /// no other worker gets it before then.
    public var nextAttemptAt: Date
    /// When it was enqueued.
    public var createdAt: Date
    /// When the receiver acknowledged it.
    public var deliveredAt: Date?
    /// The last failure, for support staff.
    public var lastError: String?

    /// Creates an outbox message value.
    public init(
        id: Int64,
        idempotencyKey: String,
        playerId: String,
        transactionId: String?,
        payload: Data,
        attempts: Int,
        nextAttemptAt: Date,
        createdAt: Date,
        deliveredAt: Date?,
        lastError: String?
    ) {
        self.id = id
        self.idempotencyKey = idempotencyKey
        self.playerId = playerId
        self.transactionId = transactionId
        self.payload = payload
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
        self.lastError = lastError
    }
}
