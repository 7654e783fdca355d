import Foundation

/// The JSON body the outbox sends to the game server for one delivery.
///
/// Dates are epoch milliseconds, as in Apple's signed transactions. The receiver must
/// deduplicate on the outbox's idempotency key, which for a delivery is the store's key of
/// ``transactionId`` (``Store/key(_:)``: an App Store id as it is) (a later refund of the
/// purchase is a ``RefundMessage`` with a key of its own).
public struct DeliveryMessage: Sendable, Hashable, Codable {
    /// Always `"delivery"` (a ``RefundMessage`` has another kind).
    public var kind: String
    /// The player who receives the goods.
    public var playerId: String
    /// The store that sold it (a ``Store`` raw value: `app_store`, `google_play`).
    public var store: String
    /// The store's transaction id.
    public var transactionId: String
    /// Apple's original transaction id.
    public var originalTransactionId: String
    /// The order fulfilled, if any.
    public var orderId: String?
    /// The App Store product id.
    public var productId: String
    /// The purchased quantity.
    public var quantity: Int
    /// What to grant.
    public var grants: Grants
    /// Apple's environment string.
    public var environment: String
    /// Which path delivered it (a ``DeliverySource`` raw value).
    public var source: String
    /// Flags, sorted.
    public var flags: [String]
    /// When Apple says the purchase happened, epoch milliseconds.
    public var purchaseDate: Int64

    /// The message announcing `purchase`.
    public init(purchase: Purchase) {
        kind = "delivery"
        playerId = purchase.playerId
        store = purchase.store.rawValue
        transactionId = purchase.transactionId
        originalTransactionId = purchase.originalTransactionId
        orderId = purchase.orderId
        productId = purchase.productId
        quantity = purchase.quantity
        grants = purchase.grants
        environment = purchase.environment.rawValue
        source = purchase.source.rawValue
        flags = purchase.flags.sorted()
        purchaseDate = purchase.purchaseDate.ledgerMilliseconds
    }

    /// Decodes a message from an outbox payload.
    public static func decode(_ payload: Data) throws -> DeliveryMessage {
        try JSONDecoder().decode(DeliveryMessage.self, from: payload)
    }

    /// The JSON body (keys sorted, so equal messages have equal bytes): the bytes
    /// Foundation's `JSONEncoder` with `.sortedKeys` gives, written directly.
    public func encoded() throws -> Data {
        var writer = LedgerJSON.Writer(escapesSlashes: true)
        var members: [(key: String, write: (inout LedgerJSON.Writer) -> Void)] = [
            ("kind", { $0.string(kind) }),
            ("playerId", { $0.string(playerId) }),
            ("store", { $0.string(store) }),
            ("transactionId", { $0.string(transactionId) }),
            ("originalTransactionId", { $0.string(originalTransactionId) }),
            ("productId", { $0.string(productId) }),
            ("quantity", { $0.integer(Int64(quantity)) }),
            (
                "grants",
                {
                    $0.object(grants.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) { writer, amount in
                        writer.integer(amount)
                    }
                }
            ),
            ("environment", { $0.string(environment) }),
            ("source", { $0.string(source) }),
            ("flags", { $0.stringArray(flags) }),
            ("purchaseDate", { $0.integer(purchaseDate) }),
        ]
        if let orderId { members.append(("orderId", { $0.string(orderId) })) }
        writer.object(members)
        return Data(writer.bytes)
    }
}
