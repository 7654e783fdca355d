import AppStoreModel
import Crypto
import Foundation

/// An App Store Server API key: the private key from App Store Connect (a `.p8` file) and
/// the identifiers a token names, able to make the bearer tokens the API requires.
///
/// A token is a JWT signed with ES256: header `{"alg":"ES256","kid":<keyId>,"typ":"JWT"}`,
/// claims ``AppStoreServerAPIClaims`` (`iss`, `iat`, `exp`, `aud`, `bid`), signature the raw
/// 64-byte `r || s`, each part base64url without padding.
///
/// The key's ``description`` never shows the private key.
public struct AppStoreServerAPIKey: Sendable, CustomStringConvertible {
    /// The issuer id of the team's keys, from App Store Connect (`iss`).
    public let issuerId: String
    /// The key's id, from App Store Connect (`kid`).
    public let keyId: String
    /// The bundle id of the app the requests are about (`bid`).
    public let bundleId: String
    /// The P-256 private key.
    public let privateKey: P256.Signing.PrivateKey

    /// Creates a key from its parts.
    ///
    /// - Parameters:
    ///   - issuerId: the issuer id.
    ///   - keyId: the key id.
    ///   - bundleId: the app's bundle id.
    ///   - privateKey: the P-256 private key.
    public init(issuerId: String, keyId: String, bundleId: String, privateKey: P256.Signing.PrivateKey) {
        self.issuerId = issuerId
        self.keyId = keyId
        self.bundleId = bundleId
        self.privateKey = privateKey
    }

    /// Creates a key from the PEM text of a `.p8` file.
    ///
    /// - Parameters:
    ///   - issuerId: the issuer id.
    ///   - keyId: the key id.
    ///   - bundleId: the app's bundle id.
    ///   - privateKeyPEM: a PKCS#8 `PRIVATE KEY` block (Apple's format) or a SEC1
    ///     `EC PRIVATE KEY` block, holding a P-256 key.
    /// - Throws: ``AppStoreServerAPIKeyError/invalidPrivateKey(_:)``.
    public init(issuerId: String, keyId: String, bundleId: String, privateKeyPEM: String) throws {
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw AppStoreServerAPIKeyError.invalidPrivateKey(String(describing: error))
        }
        self.init(issuerId: issuerId, keyId: keyId, bundleId: bundleId, privateKey: key)
    }

    /// Creates a key around a freshly generated P-256 private key, e.g. for an emulator
    /// or a test.
    ///
    /// - Parameters:
    ///   - issuerId: the issuer id.
    ///   - keyId: the key id.
    ///   - bundleId: the app's bundle id.
    /// - Returns: The new key.
    public static func generate(issuerId: String, keyId: String, bundleId: String) -> AppStoreServerAPIKey {
        AppStoreServerAPIKey(
            issuerId: issuerId, keyId: keyId, bundleId: bundleId, privateKey: P256.Signing.PrivateKey())
    }

    /// The private key as a PKCS#8 `PRIVATE KEY` PEM block, the format of Apple's `.p8`
    /// files. It is unencrypted: store it where only its owner can read it.
    public var privateKeyPEM: String { privateKey.pemRepresentation }

    /// The public key, which a verifier registers under ``keyId``.
    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// The public key as a `PUBLIC KEY` (SubjectPublicKeyInfo) PEM block.
    public var publicKeyPEM: String { publicKey.pemRepresentation }

    /// The JWT header of every token: `alg` ES256, `kid` ``keyId``, `typ` JWT.
    public var tokenHeader: JWSHeader { JWSHeader(alg: "ES256", kid: keyId, typ: "JWT") }

    /// Makes a bearer token for the App Store Server API.
    ///
    /// - Parameters:
    ///   - issuedAt: the token's `iat`, truncated to whole seconds; now by default.
    ///   - lifetime: seconds from `iat` to `exp`; at most 3600 (Apple's limit). 20 minutes
    ///     by default.
    /// - Returns: The compact JWT, to send as `Authorization: Bearer <token>`.
    /// - Throws: ``AppStoreServerAPIKeyError/invalidLifetime(_:)`` or
    ///   ``AppStoreServerAPIKeyError/signingFailed(_:)``.
    public func makeToken(issuedAt: Date = Date(), lifetime: TimeInterval = 1200) throws -> String {
        guard lifetime >= 1, lifetime <= AppStoreServerAPIClaims.maximumLifetime else {
            throw AppStoreServerAPIKeyError.invalidLifetime(lifetime)
        }
        let claims = AppStoreServerAPIClaims(
            issuerId: issuerId, bundleId: bundleId, issuedAt: issuedAt, lifetime: lifetime)
        return try signToken(claims: claims)
    }

    /// Signs arbitrary claims under an arbitrary header with this key, without checking
    /// them: for emulators and tests that need tokens a real client would not make (an
    /// expired token, another audience, `alg` other than ES256).
    ///
    /// The signature is always ES256 with ``privateKey``, whatever the header says.
    ///
    /// - Parameters:
    ///   - claims: the claims.
    ///   - header: the header; ``tokenHeader`` by default.
    /// - Returns: The compact JWT.
    /// - Throws: ``AppStoreServerAPIKeyError/signingFailed(_:)``.
    public func signToken(claims: AppStoreServerAPIClaims, header: JWSHeader? = nil) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let headerJSON = try encoder.encode(header ?? tokenHeader)
            let claimsJSON = try encoder.encode(claims)
            let signingInput = headerJSON.base64URLEncodedString + "." + claimsJSON.base64URLEncodedString
            let signature = try privateKey.signature(for: Data(signingInput.utf8))
            return signingInput + "." + signature.rawRepresentation.base64URLEncodedString
        } catch {
            throw AppStoreServerAPIKeyError.signingFailed(String(describing: error))
        }
    }

    /// The identifiers, never the private key.
    public var description: String {
        "AppStoreServerAPIKey(issuerId: \(issuerId), keyId: \(keyId), bundleId: \(bundleId))"
    }
}
