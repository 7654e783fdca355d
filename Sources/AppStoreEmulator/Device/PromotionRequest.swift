/// The body of `POST /emulator/v1/devices/{deviceId}/promotions`.
public struct PromotionRequest: Codable, Hashable, Sendable {
    /// The product the customer chose on the App Store page.
    public var productId: String

    /// Creates a request.
    public init(productId: String) {
        self.productId = productId
    }
}
