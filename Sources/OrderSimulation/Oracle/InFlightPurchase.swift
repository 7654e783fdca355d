/// A purchase still in flight when the run was judged: the oracle would count it wrong if
/// the run stopped here, but something is still working on it, so it is neither lost nor
/// passed. A run that ends with one is inconclusive.
public struct InFlightPurchase: Codable, Hashable, Sendable {
    /// Apple's transaction, or `nil` for a purchase nothing was charged for yet (Ask to Buy).
    public var transactionId: String?
    /// The order's token, for a purchase nothing was charged for yet.
    public var appAccountToken: String?
    /// What the oracle would count if the run stopped here (`nil` for an uncharged purchase).
    public var wouldBe: IntegrityViolation.Kind?
    /// What the oracle saw.
    public var detail: String
    /// What it was waiting for.
    public var waits: [PurchaseWait]

    /// Creates an in-flight purchase.
    public init(
        transactionId: String?, appAccountToken: String? = nil, wouldBe: IntegrityViolation.Kind?, detail: String,
        waits: [PurchaseWait]
    ) {
        self.transactionId = transactionId
        self.appAccountToken = appAccountToken
        self.wouldBe = wouldBe
        self.detail = detail
        self.waits = waits
    }
}
