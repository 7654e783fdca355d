/// The body of `purchases.products.acknowledge`: Google's
/// `ProductPurchasesAcknowledgeRequest`.
public struct ProductPurchasesAcknowledgeRequest: Codable, Hashable, Sendable {
    /// Payload to attach to the purchase.
    public var developerPayload: String?

    /// Creates a request.
    public init(developerPayload: String? = nil) {
        self.developerPayload = developerPayload
    }
}
