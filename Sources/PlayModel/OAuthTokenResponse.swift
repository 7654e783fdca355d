/// The answer of an OAuth 2.0 token endpoint to a granted request (RFC 6749 §5.1), as
/// Google's `token_uri` gives it for a JWT bearer assertion.
public struct OAuthTokenResponse: Codable, Hashable, Sendable {
    /// The bearer token for API calls.
    public var accessToken: String
    /// Seconds until it expires (Google: 3599).
    public var expiresIn: Int
    /// `Bearer`.
    public var tokenType: String

    /// Creates an answer.
    public init(accessToken: String, expiresIn: Int, tokenType: String = "Bearer") {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.tokenType = tokenType
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
    }
}

/// An OAuth 2.0 token endpoint's error answer (RFC 6749 §5.2):
/// `{"error": "invalid_grant", "error_description": …}`.
public struct OAuthErrorResponse: Codable, Hashable, Sendable, Error {
    /// `invalid_request`, `invalid_grant`, `unsupported_grant_type`, ….
    public var error: String
    /// What went wrong, for a person.
    public var errorDescription: String?

    /// Creates an error answer.
    public init(error: String, errorDescription: String?) {
        self.error = error
        self.errorDescription = errorDescription
    }

    private enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
