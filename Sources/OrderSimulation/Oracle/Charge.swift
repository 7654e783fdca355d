/// One charge the App Store or Google Play made, as the simulation's ground truth knows it:
/// the emulator's charge ledger (Apple's, or the Play side's paid purchases) joined with who
/// paid.
public struct Charge: Codable, Hashable, Sendable {
    /// Apple's transaction id, or Google's order id (`GPA.…`).
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
    /// Whether Google refunded it because nobody acknowledged it within three days (its
    /// voided record's source is Google, its reason an unacknowledged purchase).
    public var refundedUnacknowledged: Bool

    /// Creates a charge.
    public init(
        transactionId: String, productId: String, quantity: Int, payer: String?, refunded: Bool,
        refundedUnacknowledged: Bool = false
    ) {
        self.transactionId = transactionId
        self.productId = productId
        self.quantity = quantity
        self.payer = payer
        self.refunded = refunded
        self.refundedUnacknowledged = refundedUnacknowledged
    }
}
