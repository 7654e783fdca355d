/// One state a device's journal wrote for an order, as it happened.
public struct JournalTransition: Codable, Hashable, Sendable {
    /// Seconds since the run started.
    public var at: Double
    /// The device that wrote it.
    public var device: String
    /// The journal's id for the order.
    public var recordId: String
    /// The player who ordered.
    public var playerId: String
    /// The product.
    public var productId: String
    /// Where the order came from (`game`, `promoted`, `store`).
    public var origin: String
    /// The state written (`created`, `purchasing`, …, `failed:REASON`).
    public var state: String
    /// The server's order id, once known.
    public var orderId: String?
    /// The order's app account token, once known.
    public var appAccountToken: String?
    /// Apple's transaction id, once known.
    public var transactionId: String?
    /// Whether the store was told to finish the transaction.
    public var transactionFinished: Bool

    /// Creates a transition.
    public init(
        at: Double, device: String, recordId: String, playerId: String, productId: String, origin: String,
        state: String, orderId: String?, appAccountToken: String?, transactionId: String?, transactionFinished: Bool
    ) {
        self.at = at
        self.device = device
        self.recordId = recordId
        self.playerId = playerId
        self.productId = productId
        self.origin = origin
        self.state = state
        self.orderId = orderId
        self.appAccountToken = appAccountToken
        self.transactionId = transactionId
        self.transactionFinished = transactionFinished
    }
}
