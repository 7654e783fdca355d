import AppStoreModel
import Crypto
import Foundation

/// Verifies the bearer tokens of App Store Server API requests, as the App Store does: for
/// an emulator or a proxy that stands in for Apple's API.
///
/// Checks, in order: the compact JWT form and JSON header; `alg` is ES256; `kid` names a
/// registered key; the ES256 signature (raw `r || s`) with that key; the claims decode;
/// `aud` is `appstoreconnect-v1`; `iss` is the key's issuer; `bid` is one of the key's
/// bundle ids; `exp - iat` is at most 60 minutes and `iat` is not in the future, or,
/// for a token without `iat` (as Apple's own server libraries send), `exp` is at most
/// 60 minutes from now; `exp` has not passed. Times allow ``clockSkew``. Every rejection is an
/// ``AppStoreServerAPITokenError`` with a stable code.
public struct AppStoreServerAPITokenVerifier: Sendable {
    /// A public key registered with the verifier and what tokens signed by it must claim.
    public struct RegisteredKey: Sendable {
        /// The key id tokens name in their `kid` header.
        public var keyId: String
        /// The issuer id tokens must name in `iss`.
        public var issuerId: String
        /// The bundle ids tokens may name in `bid`; a team's key serves all its apps.
        public var bundleIds: Set<String>
        /// The P-256 public key of the App Store Connect key.
        public var publicKey: P256.Signing.PublicKey

        /// Registers a public key for one or more apps.
        ///
        /// - Parameters:
        ///   - keyId: the key id (`kid`).
        ///   - issuerId: the issuer id (`iss`).
        ///   - bundleIds: the accepted bundle ids (`bid`).
        ///   - publicKey: the P-256 public key.
        public init(keyId: String, issuerId: String, bundleIds: Set<String>, publicKey: P256.Signing.PublicKey) {
            self.keyId = keyId
            self.issuerId = issuerId
            self.bundleIds = bundleIds
            self.publicKey = publicKey
        }

        /// Registers a public key for one app.
        ///
        /// - Parameters:
        ///   - keyId: the key id (`kid`).
        ///   - issuerId: the issuer id (`iss`).
        ///   - bundleId: the accepted bundle id (`bid`).
        ///   - publicKey: the P-256 public key.
        public init(keyId: String, issuerId: String, bundleId: String, publicKey: P256.Signing.PublicKey) {
            self.init(keyId: keyId, issuerId: issuerId, bundleIds: [bundleId], publicKey: publicKey)
        }

        /// Registers a public key given as a `PUBLIC KEY` PEM block, for one app.
        ///
        /// - Parameters:
        ///   - keyId: the key id (`kid`).
        ///   - issuerId: the issuer id (`iss`).
        ///   - bundleId: the accepted bundle id (`bid`).
        ///   - publicKeyPEM: the P-256 public key in PEM.
        /// - Throws: swift-crypto's error when the PEM is not a P-256 public key.
        public init(keyId: String, issuerId: String, bundleId: String, publicKeyPEM: String) throws {
            try self.init(
                keyId: keyId, issuerId: issuerId, bundleId: bundleId,
                publicKey: P256.Signing.PublicKey(pemRepresentation: publicKeyPEM))
        }
    }

    /// The registered keys, by key id.
    public let keys: [String: RegisteredKey]
    /// How far `iat` may lie in the future and `exp` in the past, in seconds.
    public let clockSkew: TimeInterval

    /// The longest token accepted, in bytes; real tokens are about 300 bytes.
    public static let maximumTokenLength = 8 * 1024

    /// Creates a verifier for a set of keys; a later key with the same id replaces an
    /// earlier one.
    ///
    /// - Parameters:
    ///   - keys: the registered keys.
    ///   - clockSkew: the allowance for clock differences; 60 seconds by default.
    public init(keys: [RegisteredKey], clockSkew: TimeInterval = 60) {
        var byId: [String: RegisteredKey] = [:]
        for key in keys {
            byId[key.keyId] = key
        }
        self.keys = byId
        self.clockSkew = clockSkew
    }

    /// Creates a verifier for one key.
    ///
    /// - Parameters:
    ///   - key: the registered key.
    ///   - clockSkew: the allowance for clock differences; 60 seconds by default.
    public init(key: RegisteredKey, clockSkew: TimeInterval = 60) {
        self.init(keys: [key], clockSkew: clockSkew)
    }

    /// Verifies the value of an `Authorization` header, `Bearer <token>`.
    ///
    /// - Parameters:
    ///   - authorizationHeader: the header value; `nil` when the request had none.
    ///   - now: the time to check `iat` and `exp` against.
    /// - Returns: The token's claims.
    /// - Throws: ``AppStoreServerAPITokenError`` with code `missing_token` when there is no
    ///   bearer token, or any code of ``verify(_:at:)``.
    public func verify(
        authorizationHeader: String?, at now: Date = Date()
    ) throws(AppStoreServerAPITokenError) -> AppStoreServerAPIClaims {
        guard let header = authorizationHeader?.trimmingCharacters(in: .whitespaces),
            header.count > 7, header.prefix(7).lowercased() == "bearer "
        else {
            throw AppStoreServerAPITokenError(.missingToken, "no \"Authorization: Bearer <token>\" header")
        }
        return try verify(String(header.dropFirst(7)), at: now)
    }

    /// Verifies a token.
    ///
    /// - Parameters:
    ///   - token: the compact JWT.
    ///   - now: the time to check `iat` and `exp` against.
    /// - Returns: The token's claims.
    /// - Throws: ``AppStoreServerAPITokenError`` naming the first failed check.
    public func verify(_ token: String, at now: Date = Date()) throws(AppStoreServerAPITokenError)
        -> AppStoreServerAPIClaims
    {
        guard token.utf8.count <= Self.maximumTokenLength else {
            throw AppStoreServerAPITokenError(
                .malformedToken, "a token of \(token.utf8.count) bytes exceeds \(Self.maximumTokenLength)")
        }
        let compact: CompactJWS
        do {
            compact = try CompactJWS(token)
        } catch {
            throw AppStoreServerAPITokenError(.malformedToken, "not a compact JWT: \(error.message)")
        }
        guard let headerBytes = Base64.decode(compact.headerSegment.utf8, alphabet: .url),
            let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes))
        else {
            throw AppStoreServerAPITokenError(.malformedToken, "the header is not base64url JSON")
        }
        guard header.alg == "ES256" else {
            throw AppStoreServerAPITokenError(
                .unsupportedAlgorithm, "alg is \(header.alg.map { "\"\($0)\"" } ?? "absent"), not \"ES256\"")
        }
        guard let keyId = header.kid, let key = keys[keyId] else {
            throw AppStoreServerAPITokenError(
                .unknownKey, "kid \(header.kid.map { "\"\($0)\"" } ?? "absent") names no registered key")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: compact.signature),
            key.publicKey.isValidSignature(signature, for: compact.signingInput)
        else {
            throw AppStoreServerAPITokenError(
                .signatureInvalid, "the ES256 signature does not verify with key \"\(keyId)\"")
        }
        guard let claims = try? JSONDecoder().decode(AppStoreServerAPIClaims.self, from: compact.payload) else {
            throw AppStoreServerAPITokenError(
                .malformedToken, "the claims are not base64url JSON with iss, exp, aud, bid and an optional iat")
        }
        try check(claims, against: key, at: now)
        return claims
    }

    private func check(
        _ claims: AppStoreServerAPIClaims, against key: RegisteredKey, at now: Date
    ) throws(AppStoreServerAPITokenError) {
        guard claims.audience == AppStoreServerAPIClaims.audience else {
            throw AppStoreServerAPITokenError(
                .wrongAudience, "aud is \"\(claims.audience)\", not \"\(AppStoreServerAPIClaims.audience)\"")
        }
        guard claims.issuerId == key.issuerId else {
            throw AppStoreServerAPITokenError(
                .wrongIssuer, "iss \"\(claims.issuerId)\" is not the issuer of key \"\(key.keyId)\"")
        }
        guard key.bundleIds.contains(claims.bundleId) else {
            throw AppStoreServerAPITokenError(
                .wrongBundleId, "bid \"\(claims.bundleId)\" is not an app of key \"\(key.keyId)\"")
        }
        let nowSeconds = now.timeIntervalSince1970
        // Apple's own server libraries send no `iat`: then `exp` is held to 60 minutes from
        // now, as it would be from `iat`.
        if let issuedAt = claims.issuedAt {
            // In integers: exp and iat may be any Int64, and their difference may not fit.
            let (lifetime, overflow) = claims.expiresAt.subtractingReportingOverflow(issuedAt)
            guard !overflow, lifetime > 0, lifetime <= Int64(AppStoreServerAPIClaims.maximumLifetime) else {
                throw AppStoreServerAPITokenError(
                    .lifetimeTooLong,
                    "exp \(claims.expiresAt) - iat \(issuedAt) must be in (0, "
                        + "\(AppStoreServerAPIClaims.maximumLifetime)] s"
                )
            }
            guard TimeInterval(issuedAt) <= nowSeconds + clockSkew else {
                throw AppStoreServerAPITokenError(
                    .notYetValid, "iat \(issuedAt) is after now (\(nowSeconds) s) plus \(clockSkew) s")
            }
        } else {
            let limit = nowSeconds + AppStoreServerAPIClaims.maximumLifetime + clockSkew
            guard TimeInterval(claims.expiresAt) <= limit else {
                throw AppStoreServerAPITokenError(
                    .lifetimeTooLong,
                    "without iat, exp \(claims.expiresAt) must be at most "
                        + "\(AppStoreServerAPIClaims.maximumLifetime) s after now (\(nowSeconds) s) plus \(clockSkew) s"
                )
            }
        }
        guard nowSeconds < TimeInterval(claims.expiresAt) + clockSkew else {
            throw AppStoreServerAPITokenError(
                .tokenExpired, "exp \(claims.expiresAt) is before now (\(nowSeconds) s) minus \(clockSkew) s")
        }
    }

    /// The JWT header fields the verifier reads.
    private struct Header: Decodable {
        var alg: String?
        var kid: String?
    }
}
