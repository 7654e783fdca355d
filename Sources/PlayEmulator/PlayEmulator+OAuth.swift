import Foundation
import PlayModel
import PlaySigning

extension PlayEmulator {
    /// The grant type of a JWT bearer assertion (RFC 7523).
    static let jwtBearerGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// Google's token endpoint. Google's own library (google-auth) signs its assertions for
    /// this audience whatever the key file's `token_uri`, and Google accepts it, so the
    /// emulator accepts it beside its own `token_uri`.
    public static let googleTokenEndpoint = "https://oauth2.googleapis.com/token"
    /// Seconds of clock skew allowed on `iat`.
    static let allowedSkew: Double = 300

    /// The token endpoint: exchanges a service account's signed assertion for an access
    /// token, as Google's `token_uri` does.
    ///
    /// - Parameters:
    ///   - form: the `application/x-www-form-urlencoded` body's fields.
    ///   - requestBase: `http://host:port` as this request reached the emulator; the
    ///     assertion's `aud` must be this base's `/token`, the configured base URL's, or
    ///     Google's own token endpoint (``googleTokenEndpoint``).
    /// - Throws: ``OAuthErrorResponse``: `unsupported_grant_type`, `invalid_request`
    ///   (no assertion), `invalid_grant` (a JWT that does not verify with the issued key,
    ///   another issuer or audience, times outside an hour), `invalid_scope`.
    public func exchange(
        form: [String: String], requestBase: String, now: Date = Date()
    ) throws(OAuthErrorResponse) -> OAuthTokenResponse {
        guard form["grant_type"] == Self.jwtBearerGrantType else {
            throw OAuthErrorResponse(
                error: "unsupported_grant_type", errorDescription: "Invalid grant_type: \(form["grant_type"] ?? "")")
        }
        guard let assertion = form["assertion"], !assertion.isEmpty else {
            throw OAuthErrorResponse(
                error: "invalid_request", errorDescription: "Missing required parameter: assertion")
        }
        let keys: JSONWebKeySet
        do {
            keys = try serviceAccountKeySet()
        } catch {
            throw OAuthErrorResponse(error: "server_error", errorDescription: "the emulator has no key: \(error)")
        }
        let claims: AssertionClaims
        do {
            claims = try RS256JWT.verify(assertion, as: AssertionClaims.self, keys: keys)
        } catch {
            throw OAuthErrorResponse(error: "invalid_grant", errorDescription: Self.description(of: error))
        }
        guard claims.iss == Self.clientEmail else {
            throw OAuthErrorResponse(error: "invalid_grant", errorDescription: "Invalid email or User ID")
        }
        let audiences = Set([
            tokenURI(requestBase: requestBase), Self.trimmed(requestBase) + "/token", Self.googleTokenEndpoint,
        ])
        guard let audience = claims.aud, audiences.contains(audience) else {
            throw OAuthErrorResponse(
                error: "invalid_grant",
                errorDescription: "Invalid JWT: aud must be the token endpoint, \(tokenURI(requestBase: requestBase))")
        }
        let time = now.timeIntervalSince1970
        guard let iat = claims.iat, let exp = claims.exp, iat <= time + Self.allowedSkew, exp > time, exp > iat,
            exp - iat <= 3600
        else {
            throw OAuthErrorResponse(
                error: "invalid_grant",
                errorDescription:
                    "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. "
                    + "Check your iat and exp values in the JWT claim.")
        }
        guard let scope = claims.scope, scope.split(separator: " ").contains(Substring(Self.androidPublisherScope))
        else {
            throw OAuthErrorResponse(
                error: "invalid_scope", errorDescription: "Invalid OAuth scope or ID token audience provided.")
        }
        let token = PlayIdentifiers.accessToken()
        state.withLock { state in
            state.accessTokens[token] = now.addingTimeInterval(Double(Self.accessTokenLifetime))
        }
        return OAuthTokenResponse(accessToken: token, expiresIn: Self.accessTokenLifetime)
    }

    private static func description(of error: RS256JWTError) -> String {
        switch error.code {
        case .badSignature, .unknownKey: "Invalid JWT Signature."
        case .malformedJWT, .unsupportedAlgorithm: "Invalid JWT: \(error.message)"
        }
    }

    static func trimmed(_ base: String) -> String {
        base.hasSuffix("/") ? String(base.dropLast()) : base
    }

    /// The fields of an `application/x-www-form-urlencoded` body (`+` is a space, `%XX` a
    /// byte); the first of a repeated field wins.
    public static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }
}
