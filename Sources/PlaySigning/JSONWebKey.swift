import AppStoreSigning
import Foundation
import _CryptoExtras

/// An RSA public key as a JSON Web Key (RFC 7517, RFC 7518 §6.3):
/// `{"kty":"RSA","alg":"RS256","use":"sig","kid":…,"n":…,"e":…}`.
public struct JSONWebKey: Codable, Hashable, Sendable {
    /// `RSA`.
    public var kty: String
    /// `RS256`.
    public var alg: String?
    /// `sig`.
    public var use: String?
    /// The key's id, as JWT headers name it.
    public var kid: String?
    /// The modulus, big-endian unsigned, base64url.
    public var n: String
    /// The public exponent, big-endian unsigned, base64url.
    public var e: String

    /// The JWK of `publicKey`, with `kid`.
    ///
    /// - Throws: When the key's primitives cannot be read.
    public init(publicKey: _RSA.Signing.PublicKey, kid: String) throws {
        let primitives = try publicKey.getKeyPrimitives()
        kty = "RSA"
        alg = "RS256"
        use = "sig"
        self.kid = kid
        n = Self.unsigned(primitives.modulus).base64URLEncodedString
        e = Self.unsigned(primitives.publicExponent).base64URLEncodedString
    }

    /// The RSA public key this JWK describes.
    ///
    /// - Throws: ``RS256JWTError`` `unknown_key` when it is not an RSA key or its `n` or `e`
    ///   is not base64url; the RSA error when they make no valid key.
    public func publicKey() throws -> _RSA.Signing.PublicKey {
        guard kty == "RSA", let modulus = Data(base64URLEncoded: n), let exponent = Data(base64URLEncoded: e) else {
            throw RS256JWTError(.unknownKey, "key \(kid ?? "(no kid)") is not an RSA JWK")
        }
        return try _RSA.Signing.PublicKey(n: modulus, e: exponent)
    }

    /// `bytes` without leading zero bytes (JWK integers are minimal, RFC 7518 §2).
    private static func unsigned(_ bytes: Data) -> Data {
        let trimmed = bytes.drop(while: { $0 == 0 })
        return trimmed.isEmpty ? Data([0]) : Data(trimmed)
    }
}

/// A JSON Web Key Set: `{"keys": [...]}`, the keys a verifier accepts, found by `kid`.
public struct JSONWebKeySet: Codable, Hashable, Sendable {
    /// The keys.
    public var keys: [JSONWebKey]

    /// A set of `keys`.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// The key whose `kid` is `keyId`; `nil` when none is.
    public func key(withId keyId: String) -> JSONWebKey? {
        keys.first { $0.kid == keyId }
    }
}
