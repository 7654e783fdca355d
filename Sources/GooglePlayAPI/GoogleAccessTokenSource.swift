import AppStoreAPI
import Foundation
import PlayModel
import PlaySigning
import _CryptoExtras

/// Access tokens for the Android Publisher API, from a Google service account: it signs a
/// JWT assertion (RS256, ``RS256JWT``) with the account's key, posts it to the account's
/// `token_uri` (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`) and keeps the
/// token until shortly before it expires.
///
/// One refresh at a time: callers that need a token while one is being fetched wait for
/// that fetch. The service account is read on first use, not at creation, so a key made
/// on demand (the emulator's) costs nothing at start. Tokens and keys are never logged.
public actor GoogleAccessTokenSource {
    /// The OAuth scope of the Android Publisher API.
    public static let androidPublisherScope = "https://www.googleapis.com/auth/androidpublisher"
    /// The grant type of a JWT bearer assertion (RFC 7523).
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// How long each assertion is valid, in seconds (Google takes at most an hour).
    static let assertionLifetime: Int64 = 3_600
    /// How long before its expiry a token is replaced, in seconds.
    static let refreshMargin: TimeInterval = 300

    private let serviceAccount: @Sendable () throws -> ServiceAccountKey
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    private var signer: (key: _RSA.Signing.PrivateKey, account: ServiceAccountKey)?
    private var cached: (token: String, expires: Date)?
    private var refreshing: Task<(token: String, expires: Date), any Error>?

    /// Creates a source.
    ///
    /// - Parameters:
    ///   - serviceAccount: the service account's key file; called on first use (and again
    ///     after it threw).
    ///   - transport: how the token endpoint is reached.
    ///   - now: the clock assertions and expiries are read on.
    public init(
        serviceAccount: @escaping @Sendable () throws -> ServiceAccountKey, transport: any HTTPTransport,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.serviceAccount = serviceAccount
        self.transport = transport
        self.now = now
    }

    /// A token valid for at least a few more minutes: the cached one, else a new one.
    ///
    /// - Throws: ``GooglePlayAPIError``: `invalid_request` (the key file's key or
    ///   `token_uri` cannot be used), `transport_failed`, `authorization_failed` (the
    ///   endpoint refused the assertion or failed; retryable for 429 and 5xx).
    public func token() async throws(GooglePlayAPIError) -> String {
        if let cached, cached.expires.timeIntervalSince(now()) > Self.refreshMargin { return cached.token }
        let task: Task<(token: String, expires: Date), any Error>
        if let refreshing {
            task = refreshing
        } else {
            let request = try makeRequest()
            let (transport, now) = (transport, now)
            task = Task { try await Self.fetch(request, transport: transport, now: now) }
            refreshing = task
        }
        do {
            let fetched = try await task.value
            if refreshing == task { refreshing = nil }
            cached = fetched
            return fetched.token
        } catch {
            if refreshing == task { refreshing = nil }
            throw error as? GooglePlayAPIError
                ?? GooglePlayAPIError(kind: .transportFailed, message: "\(error)")
        }
    }

    /// Forgets `token` when it is the cached one: the API refused it (HTTP 401), so the next
    /// ``token()`` fetches another.
    public func invalidate(_ token: String) {
        if cached?.token == token { cached = nil }
    }

    /// The token request: a fresh assertion, form-encoded, for the account's `token_uri`.
    private func makeRequest() throws(GooglePlayAPIError) -> HTTPRequestData {
        let (key, account) = try loadSigner()
        guard let tokenURI = URL(string: account.tokenUri), tokenURI.scheme != nil else {
            throw GooglePlayAPIError(kind: .invalidRequest, message: "the service account's token_uri is not a URL")
        }
        let issued = Int64(now().timeIntervalSince1970)
        let claims = ServiceAccountAssertion(
            iss: account.clientEmail, scope: Self.androidPublisherScope, aud: account.tokenUri, iat: issued,
            exp: issued + Self.assertionLifetime)
        let assertion: String
        do {
            assertion = try RS256JWT.sign(claims, with: key, keyId: account.privateKeyId)
        } catch {
            throw GooglePlayAPIError(kind: .invalidRequest, message: "cannot sign the assertion: \(error)")
        }
        // Both values are URL-safe: the grant type is escaped here, a JWT is base64url and dots.
        let grant = Self.grantType.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return HTTPRequestData(
            method: .post, url: tokenURI,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data("grant_type=\(grant)&assertion=\(assertion)".utf8))
    }

    /// The account's key, parsed once.
    private func loadSigner() throws(GooglePlayAPIError) -> (_RSA.Signing.PrivateKey, ServiceAccountKey) {
        if let signer { return (signer.key, signer.account) }
        do {
            let account = try serviceAccount()
            let key = try RSAKeyPEM.privateKey(pem: account.privateKey)
            signer = (key, account)
            return (key, account)
        } catch {
            throw GooglePlayAPIError(
                kind: .invalidRequest, message: "the service account's key cannot be used: \(type(of: error))")
        }
    }

    /// Posts the assertion and reads the token and its lifetime.
    private static func fetch(
        _ request: HTTPRequestData, transport: any HTTPTransport, now: @Sendable () -> Date
    ) async throws -> (token: String, expires: Date) {
        let response: HTTPResponseData
        do {
            response = try await transport.send(request)
        } catch {
            throw GooglePlayAPIError(kind: .transportFailed, message: "token endpoint: \(error)")
        }
        guard response.isSuccess else {
            let refusal = try? JSONDecoder().decode(OAuthErrorResponse.self, from: response.body)
            throw GooglePlayAPIError(
                kind: .authorizationFailed, httpStatus: response.status, reason: refusal?.error,
                message: "the token endpoint answered HTTP \(response.status)"
                    + (refusal?.errorDescription.map { ": " + String($0.prefix(256)) } ?? ""))
        }
        guard let answer = try? JSONDecoder().decode(OAuthTokenResponse.self, from: response.body),
            !answer.accessToken.isEmpty, answer.expiresIn > 0
        else {
            throw GooglePlayAPIError(
                kind: .undecodableResponse, httpStatus: response.status,
                message: "the token endpoint's answer has no access_token and positive expires_in")
        }
        return (answer.accessToken, now().addingTimeInterval(TimeInterval(answer.expiresIn)))
    }
}
