/// One transaction the oracle found wrong, and how.
public struct IntegrityViolation: Codable, Hashable, Sendable {
    /// The ways a transaction can be wrong.
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// Apple charged and the charge stands, but the ledger does not hold its goods.
        case lost
        /// The ledger holds more of the charge's goods than it paid for (delivered twice,
        /// re-granted twice, or a refund never reversed).
        case duplicate
        /// Delivered to a player other than the one who paid.
        case wrongPlayer
        /// Delivered without a charge behind it (a forged or invented transaction).
        case forgedDelivered
        /// Google Play refunded the purchase because it was not acknowledged within three
        /// days of being paid: the player paid, and the server never told Google it
        /// delivered. Final: Google's refund cannot be undone.
        case refundedUnacknowledged
    }

    /// How it is wrong.
    public var kind: Kind
    /// The transaction concerned.
    public var transactionId: String
    /// What the oracle saw, for the report.
    public var detail: String

    /// Creates a violation.
    public init(kind: Kind, transactionId: String, detail: String) {
        self.kind = kind
        self.transactionId = transactionId
        self.detail = detail
    }
}
