import AppStoreAPI
import Foundation
import PlayModel
import PlaySigning

/// Checks the OIDC token Google's Pub/Sub sends with each push (`Authorization: Bearer …`):
/// RS256 by a key of the JWKS at the certs URL, issued by Google's accounts, for the
/// configured audience and push service account, email verified, not expired.
struct GooglePushAuthenticator: Sendable {
    /// Google's issuers of the tokens.
    static let issuers: Set<String> = ["https://accounts.google.com", "accounts.google.com"]
    /// Seconds of clock skew allowed on `exp`.
    static let allowedSkew: Double = 60

    let keys: GooglePushKeys
    let audience: String
    let email: String

    /// The claims of the push's token once every check passed.
    ///
    /// - Throws: ``ServerError`` 401 `missing_credentials` or `invalid_push_token` (naming
    ///   the check that failed); 503 `play_unavailable` when the keys cannot be fetched.
    func authenticate(_ authorization: String?, now: Date = Date()) async throws -> PubSubPushTokenClaims {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else {
            throw ServerError.missingCredentials("Google's OIDC token")
        }
        let token = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        let claims: PubSubPushTokenClaims
        do {
            claims = try RS256JWT.verify(token, as: PubSubPushTokenClaims.self, keys: try await keys.current())
        } catch let error as RS256JWTError where error.code == .unknownKey {
            // Google rotates its keys: fetch them again (at most once a minute) and retry.
            do {
                claims = try RS256JWT.verify(
                    token, as: PubSubPushTokenClaims.self, keys: try await keys.current(refresh: true))
            } catch let error as RS256JWTError {
                throw Self.invalid(error.code.rawValue)
            }
        } catch let error as RS256JWTError {
            throw Self.invalid(error.code.rawValue)
        }
        guard Self.issuers.contains(claims.iss) else { throw Self.invalid("the token is not Google's (iss)") }
        guard claims.aud == audience else { throw Self.invalid("the token is for another audience (aud)") }
        guard claims.email == email else { throw Self.invalid("the token is for another service account (email)") }
        guard claims.emailVerified else { throw Self.invalid("the token's email is not verified") }
        guard Double(claims.exp) + Self.allowedSkew > now.timeIntervalSince1970 else {
            throw Self.invalid("the token expired (exp)")
        }
        return claims
    }

    private static func invalid(_ why: String) -> ServerError {
        ServerError("invalid_push_token", "the push's OIDC token is refused: \(why)", status: .unauthorized)
    }
}

/// Google's published push keys, fetched from the certs URL and kept for an hour; fetched
/// again sooner when a token names a key they lack, at most once a minute.
actor GooglePushKeys {
    static let lifetime: TimeInterval = 3_600
    static let refreshInterval: TimeInterval = 60

    private let url: URL
    private let transport: any HTTPTransport
    private var cached: (keys: JSONWebKeySet, fetched: Date)?

    init(url: URL, transport: any HTTPTransport) {
        self.url = url
        self.transport = transport
    }

    /// The keys: the cached ones while fresh (and, with `refresh`, fetched within the last
    /// minute), else fetched now.
    ///
    /// - Throws: ``ServerError`` 503 `play_unavailable` when they cannot be fetched.
    func current(refresh: Bool = false, now: Date = Date()) async throws -> JSONWebKeySet {
        if let cached {
            let age = now.timeIntervalSince(cached.fetched)
            if age < (refresh ? Self.refreshInterval : Self.lifetime) { return cached.keys }
        }
        let response: HTTPResponseData
        do {
            response = try await transport.send(
                HTTPRequestData(method: .get, url: url, headers: ["Accept": "application/json"]))
        } catch {
            throw ServerError("play_unavailable", "Google's push keys cannot be fetched", status: .serviceUnavailable)
        }
        guard response.isSuccess, let keys = try? JSONDecoder().decode(JSONWebKeySet.self, from: response.body) else {
            throw ServerError(
                "play_unavailable", "Google's push keys answered HTTP \(response.status), not a JWKS",
                status: .serviceUnavailable)
        }
        cached = (keys, now)
        return keys
    }
}
