import AppStoreSigning
import Crypto
import Foundation
import _CryptoExtras

/// Compact JWTs signed with RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3), as
/// Google's OAuth 2.0 service-account assertions and ID tokens are.
public enum RS256JWT {
    /// Signs `claims` with `key`: the header is `{"alg":"RS256","kid":…,"typ":"JWT"}`
    /// (`kid` only when given), the claims `claims` as JSON.
    ///
    /// - Throws: The claims' encoding error, or the RSA signing error.
    public static func sign(
        _ claims: some Encodable, with key: _RSA.Signing.PrivateKey, keyId: String?
    ) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = try encoder.encode(Header(alg: "RS256", kid: keyId, typ: "JWT"))
        let signingInput = header.base64URLEncodedString + "." + (try encoder.encode(claims)).base64URLEncodedString
        let signature = try key.signature(for: SHA256.hash(data: Data(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        return signingInput + "." + signature.rawRepresentation.base64URLEncodedString
    }

    /// The claims of `token` once its signature verifies with the key of `keys` its
    /// header's `kid` names.
    ///
    /// Only the signature is checked here: what the claims must say (issuer, audience,
    /// times) is the caller's to check.
    ///
    /// - Throws: ``RS256JWTError``: `malformed_jwt`, `unsupported_algorithm`,
    ///   `unknown_key`, `bad_signature`; checked in that order.
    public static func verify<Claims: Decodable>(
        _ token: String, as type: Claims.Type, keys: JSONWebKeySet
    ) throws(RS256JWTError) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else {
            throw RS256JWTError(.malformedJWT, "a JWT has three segments, not \(parts.count)")
        }
        guard let headerData = Data(base64URLEncoded: parts[0]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { throw RS256JWTError(.malformedJWT, "the header is not base64url JSON with alg") }
        guard let claimsData = Data(base64URLEncoded: parts[1]) else {
            throw RS256JWTError(.malformedJWT, "the claims are not base64url")
        }
        guard let signature = Data(base64URLEncoded: parts[2]) else {
            throw RS256JWTError(.malformedJWT, "the signature is not base64url")
        }
        guard header.alg == "RS256" else {
            throw RS256JWTError(.unsupportedAlgorithm, "alg \(header.alg) is not RS256")
        }
        guard let keyId = header.kid, let jwk = keys.key(withId: keyId) else {
            throw RS256JWTError(.unknownKey, "no key with kid \(header.kid ?? "(none)")")
        }
        guard let publicKey = try? jwk.publicKey() else {
            throw RS256JWTError(.unknownKey, "the key with kid \(keyId) is not a usable RSA key")
        }
        let digest = SHA256.hash(data: Data((parts[0] + "." + parts[1]).utf8))
        guard
            publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: digest, padding: .insecurePKCS1v1_5)
        else { throw RS256JWTError(.badSignature, "the signature does not verify with key \(keyId)") }
        do {
            return try JSONDecoder().decode(Claims.self, from: claimsData)
        } catch {
            throw RS256JWTError(.malformedJWT, "the claims are not a \(Claims.self): \(error)")
        }
    }

    /// A JWT's header (JOSE), as far as RS256 needs it.
    private struct Header: Codable {
        var alg: String
        var kid: String?
        var typ: String?
    }
}
