import Foundation

/// The game server's endpoint that the outbox posts each delivery to.
public struct WebhookSettings: Codable, Hashable, Sendable {
    /// Where to POST.
    public var url: URL
    /// The HMAC-SHA256 key the body is signed with (`X-StoreKeeper-Signature: sha256=<hex>`).
    public var secret: String?
    /// How long one POST may take, in seconds.
    public var timeoutSeconds: Double

    /// Creates settings.
    public init(url: URL, secret: String?, timeoutSeconds: Double = 10) {
        self.url = url
        self.secret = secret
        self.timeoutSeconds = timeoutSeconds
    }

    /// Decodes settings; the timeout defaults to 10 seconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(URL.self, forKey: .url)
        secret = try container.decodeIfPresent(String.self, forKey: .secret)
        timeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds) ?? 10
    }
}
