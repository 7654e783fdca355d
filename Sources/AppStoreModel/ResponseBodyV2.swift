/// The HTTP body the App Store posts to a server's notification URL (App Store Server
/// Notifications V2): `{"signedPayload": "<JWS>"}`.
///
/// The JWS payload decodes to a ``ResponseBodyV2DecodedPayload``.
public struct ResponseBodyV2: Hashable, Codable, Sendable {
    /// The notification, signed by the App Store in JWS compact serialization.
    public var signedPayload: String?

    /// Creates a notification body around a signed payload.
    public init(signedPayload: String? = nil) {
        self.signedPayload = signedPayload
    }
}
