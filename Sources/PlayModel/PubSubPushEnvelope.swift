/// The body of a Cloud Pub/Sub push: what Pub/Sub POSTs to a push subscription's endpoint
/// for each message. A 2xx answer (102, 200, 201, 202, 204) acknowledges it; anything else
/// makes Pub/Sub send it again later (at least once: expect duplicates, in any order).
public struct PubSubPushEnvelope: Codable, Hashable, Sendable {
    /// The message.
    public var message: PubSubMessage
    /// The push subscription's full name, `projects/{project}/subscriptions/{subscription}`.
    public var subscription: String

    /// Creates an envelope.
    public init(message: PubSubMessage, subscription: String) {
        self.message = message
        self.subscription = subscription
    }
}

/// `PubSubPushEnvelope.message`: one Pub/Sub message.
public struct PubSubMessage: Codable, Hashable, Sendable {
    /// The payload, base64 (standard alphabet, padded); for Google Play, a
    /// ``DeveloperNotification``'s JSON.
    public var data: String
    /// The message's id, unique within the topic (Pub/Sub's are decimal digits); a
    /// redelivery carries the same id.
    public var messageId: String
    /// When Pub/Sub received the message, RFC 3339 in UTC (`2026-01-02T03:04:05.678Z`).
    public var publishTime: String
    /// The message's attributes, when it has any (Google Play's have none).
    public var attributes: [String: String]?

    /// Creates a message.
    public init(data: String, messageId: String, publishTime: String, attributes: [String: String]? = nil) {
        self.data = data
        self.messageId = messageId
        self.publishTime = publishTime
        self.attributes = attributes
    }
}

/// The claims of the OIDC token (a Google-signed RS256 JWT) a push subscription with
/// authentication sends as `Authorization: Bearer …`. Check the signature against Google's
/// keys, then `iss`, `aud`, `email`, `email_verified` and `exp`.
public struct PubSubPushTokenClaims: Codable, Hashable, Sendable {
    /// The issuer: `https://accounts.google.com` (Google also uses `accounts.google.com`).
    public var iss: String
    /// The audience the push subscription was configured with (by default its endpoint URL).
    public var aud: String
    /// The push subscription's service account.
    public var email: String
    /// Whether Google verified ``email``; true for service accounts.
    public var emailVerified: Bool
    /// The service account's unique id.
    public var sub: String
    /// The authorized party: the service account's unique id too, in Google's tokens.
    public var azp: String?
    /// Issued at, seconds since the epoch.
    public var iat: Int64
    /// Expires at, seconds since the epoch (an hour after ``iat``).
    public var exp: Int64

    /// Creates claims.
    public init(
        iss: String, aud: String, email: String, emailVerified: Bool, sub: String, azp: String? = nil, iat: Int64,
        exp: Int64
    ) {
        self.iss = iss
        self.aud = aud
        self.email = email
        self.emailVerified = emailVerified
        self.sub = sub
        self.azp = azp
        self.iat = iat
        self.exp = exp
    }

    private enum CodingKeys: String, CodingKey {
        case iss, aud, email
        case emailVerified = "email_verified"
        case sub, azp, iat, exp
    }
}
