/// One charge the App Store made, as the simulation's ground truth knows it: the
/// emulator's charge ledger joined with who paid.
public struct Charge: Codable, Hashable, Sendable {
    /// Apple's transaction id.
    public var transactionId: String
    /// The product charged for.
    public var productId: String
    /// How many units.
    public var quantity: Int
    /// The player who placed the order the charge carries (from the device, never from the
    /// server); `nil` when no order of a known player carries it.
    public var payer: String?
    /// Whether Apple counts the charge as refunded at the end of the run.
    public var refunded: Bool

    /// Creates a charge.
    public init(transactionId: String, productId: String, quantity: Int, payer: String?, refunded: Bool) {
        self.transactionId = transactionId
        self.productId = productId
        self.quantity = quantity
        self.payer = payer
        self.refunded = refunded
    }
}
