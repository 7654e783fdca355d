/// A Google service account's JSON key file, as the Cloud console downloads it: the
/// identity a server signs its OAuth 2.0 JWT assertions with.
public struct ServiceAccountKey: Codable, Hashable, Sendable {
    /// `service_account`.
    public var type: String
    /// The Cloud project's id.
    public var projectId: String?
    /// The key's id: the `kid` of the JWTs it signs.
    public var privateKeyId: String
    /// The RSA private key, PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public var privateKey: String
    /// The account's email: the `iss` of its assertions.
    public var clientEmail: String
    /// The account's numeric id.
    public var clientId: String?
    /// Where users would be sent for consent (unused by service accounts).
    public var authUri: String?
    /// Where assertions are exchanged for access tokens: their `aud`.
    public var tokenUri: String
    /// Where Google publishes its own certificates.
    public var authProviderX509CertUrl: String?
    /// Where the account's public certificates are published.
    public var clientX509CertUrl: String?
    /// The universe the account lives in: `googleapis.com`.
    public var universeDomain: String?

    /// The `type` of a service account key.
    public static let serviceAccountType = "service_account"

    /// Creates a key file's contents.
    public init(
        type: String = ServiceAccountKey.serviceAccountType, projectId: String?, privateKeyId: String,
        privateKey: String, clientEmail: String, clientId: String?, authUri: String? = nil, tokenUri: String,
        authProviderX509CertUrl: String? = nil, clientX509CertUrl: String? = nil, universeDomain: String? = nil
    ) {
        self.type = type
        self.projectId = projectId
        self.privateKeyId = privateKeyId
        self.privateKey = privateKey
        self.clientEmail = clientEmail
        self.clientId = clientId
        self.authUri = authUri
        self.tokenUri = tokenUri
        self.authProviderX509CertUrl = authProviderX509CertUrl
        self.clientX509CertUrl = clientX509CertUrl
        self.universeDomain = universeDomain
    }

    private enum CodingKeys: String, CodingKey {
        case type
        case projectId = "project_id"
        case privateKeyId = "private_key_id"
        case privateKey = "private_key"
        case clientEmail = "client_email"
        case clientId = "client_id"
        case authUri = "auth_uri"
        case tokenUri = "token_uri"
        case authProviderX509CertUrl = "auth_provider_x509_cert_url"
        case clientX509CertUrl = "client_x509_cert_url"
        case universeDomain = "universe_domain"
    }
}
