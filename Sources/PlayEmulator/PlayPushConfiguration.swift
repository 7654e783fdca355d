import Foundation

/// Where and how the Play side pushes Real-time developer notifications: a Cloud Pub/Sub
/// push subscription's endpoint and authentication. Set with
/// ``PlayEmulator/setPushConfiguration(_:)`` (`PUT /emulator/v1/play/push`), or at start
/// (`storekeeper emulator --play-push-url …`).
///
/// In JSON: `{"url": "http://127.0.0.1:8080/v1/notifications/google", "audience": …,
/// "serviceAccountEmail": …}`, every key optional.
public struct PlayPushConfiguration: Codable, Hashable, Sendable {
    /// The push endpoint; `nil` pushes nothing.
    public var url: URL?
    /// The OIDC token's `aud`; the endpoint URL when `nil`, as Pub/Sub's default.
    public var audience: String?
    /// The OIDC token's `email`: the push subscription's service account;
    /// ``PlayEmulator/defaultPushServiceAccountEmail`` when `nil`.
    public var serviceAccountEmail: String?

    /// Creates a configuration; with no URL, nothing is pushed.
    public init(url: URL? = nil, audience: String? = nil, serviceAccountEmail: String? = nil) {
        self.url = url
        self.audience = audience
        self.serviceAccountEmail = serviceAccountEmail
    }

    /// The problem that makes it unusable, `nil` when it is fine; checked by
    /// ``PlayEmulator/setPushConfiguration(_:)``: a URL that is not
    /// absolute `http` or `https`, an empty audience, an email without `@` or longer than
    /// 254 characters.
    public var problem: String? {
        if let url, url.host == nil || !["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            return "url must be an absolute http or https URL"
        }
        if let audience, audience.isEmpty { return "audience must not be empty" }
        if let email = serviceAccountEmail, !email.contains("@") || email.count > 254 {
            return "serviceAccountEmail must be an email address of at most 254 characters"
        }
        return nil
    }
}
