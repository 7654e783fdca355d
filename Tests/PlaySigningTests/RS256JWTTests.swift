import AppStoreSigning
import Crypto
import Foundation
import PlaySigning
import Testing
import _CryptoExtras

/// Two keys for the whole suite: RSA-2048 generation is slow in a debug build.
enum Keys {
    static let signing = Result { try RSAKeyPEM.generate() }
    static let other = Result { try RSAKeyPEM.generate() }

    static func set(_ key: _RSA.Signing.PrivateKey, kid: String) throws -> JSONWebKeySet {
        JSONWebKeySet(keys: [try JSONWebKey(publicKey: key.publicKey, kid: kid)])
    }
}

struct Claims: Codable, Equatable {
    var iss: String
    var scope: String
    var aud: String
    var iat: Int64
    var exp: Int64
}

@Suite struct RS256JWTTests {
    let claims = Claims(
        iss: "play@emulator.iam.gserviceaccount.com", scope: "https://www.googleapis.com/auth/androidpublisher",
        aud: "http://127.0.0.1:9090/token", iat: 1_764_400_000, exp: 1_764_403_600)

    @Test func signedTokensVerifyAndGiveTheClaimsBack() throws {
        let key = try Keys.signing.get()
        let token = try RS256JWT.sign(claims, with: key, keyId: "k1")
        #expect(token.split(separator: ".").count == 3)
        let header = try #require(Data(base64URLEncoded: String(token.split(separator: ".")[0])))
        let headerObject = try #require(try JSONSerialization.jsonObject(with: header) as? [String: String])
        #expect(headerObject == ["alg": "RS256", "kid": "k1", "typ": "JWT"])
        let verified = try RS256JWT.verify(token, as: Claims.self, keys: try Keys.set(key, kid: "k1"))
        #expect(verified == claims)
    }

    /// The signature is RSASSA-PKCS1-v1_5 over SHA-256 of the signing input, checked here
    /// with the public key directly rather than through RS256JWT.
    @Test func theSignatureIsPKCS1OverSHA256() throws {
        let key = try Keys.signing.get()
        let token = try RS256JWT.sign(claims, with: key, keyId: "k1")
        let parts = token.split(separator: ".").map(String.init)
        let signature = try #require(Data(base64URLEncoded: parts[2]))
        #expect(signature.count == 256)
        #expect(
            key.publicKey.isValidSignature(
                .init(rawRepresentation: signature), for: SHA256.hash(data: Data((parts[0] + "." + parts[1]).utf8)),
                padding: .insecurePKCS1v1_5))
    }

    @Test func aTamperedPayloadIsABadSignature() throws {
        let key = try Keys.signing.get()
        let parts = try RS256JWT.sign(claims, with: key, keyId: "k1").split(separator: ".").map(String.init)
        var forged = claims
        forged.iss = "attacker@example.com"
        let forgedPayload = try JSONEncoder().encode(forged).base64URLEncodedString
        let token = [parts[0], forgedPayload, parts[2]].joined(separator: ".")
        #expect(throws: RS256JWTError.self) {
            try RS256JWT.verify(token, as: Claims.self, keys: try Keys.set(key, kid: "k1"))
        }
        #expect(code(of: token, keys: try Keys.set(key, kid: "k1")) == .badSignature)
    }

    @Test func anotherKeyUnderTheSameKidIsABadSignature() throws {
        let token = try RS256JWT.sign(claims, with: try Keys.other.get(), keyId: "k1")
        #expect(code(of: token, keys: try Keys.set(try Keys.signing.get(), kid: "k1")) == .badSignature)
    }

    @Test func anUnknownOrMissingKidIsUnknownKey() throws {
        let key = try Keys.signing.get()
        let keys = try Keys.set(key, kid: "k1")
        #expect(code(of: try RS256JWT.sign(claims, with: key, keyId: "k2"), keys: keys) == .unknownKey)
        #expect(code(of: try RS256JWT.sign(claims, with: key, keyId: nil), keys: keys) == .unknownKey)
    }

    @Test func anotherAlgorithmIsUnsupported() throws {
        let key = try Keys.signing.get()
        let parts = try RS256JWT.sign(claims, with: key, keyId: "k1").split(separator: ".").map(String.init)
        for alg in ["HS256", "none", "ES256"] {
            let header = Data(#"{"alg":"\#(alg)","kid":"k1","typ":"JWT"}"#.utf8).base64URLEncodedString
            let token = [header, parts[1], parts[2]].joined(separator: ".")
            #expect(code(of: token, keys: try Keys.set(key, kid: "k1")) == .unsupportedAlgorithm)
        }
    }

    @Test func malformedTokensAreMalformed() throws {
        let key = try Keys.signing.get()
        let keys = try Keys.set(key, kid: "k1")
        let parts = try RS256JWT.sign(claims, with: key, keyId: "k1").split(separator: ".").map(String.init)
        let cases = [
            "", "a.b", "a.b.c.d", parts[0] + "." + parts[1],
            "!!!." + parts[1] + "." + parts[2],
            Data("not json".utf8).base64URLEncodedString + "." + parts[1] + "." + parts[2],
            parts[0] + ".a=b." + parts[2],
            parts[0] + "." + parts[1] + ".+/+/",
        ]
        for token in cases {
            #expect(code(of: token, keys: keys) == .malformedJWT, "\(token)")
        }
        // Claims that verify but are not the type asked for are malformed, not accepted.
        let other = try RS256JWT.sign(["iss": "x"], with: key, keyId: "k1")
        #expect(code(of: other, keys: keys) == .malformedJWT)
    }

    private func code(of token: String, keys: JSONWebKeySet) -> RS256JWTError.Code? {
        do {
            _ = try RS256JWT.verify(token, as: Claims.self, keys: keys)
            return nil
        } catch {
            return error.code
        }
    }
}

@Suite struct JSONWebKeyTests {
    @Test func aKeySetHasGooglesShapeAndGivesTheKeyBack() throws {
        let key = try Keys.signing.get()
        let set = try Keys.set(key, kid: "abc")
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(set)) as? [String: [[String: String]]])
        let jwk = try #require(object["keys"]?.first)
        #expect(Set(jwk.keys) == ["kty", "alg", "use", "kid", "n", "e"])
        #expect(jwk["kty"] == "RSA" && jwk["alg"] == "RS256" && jwk["use"] == "sig" && jwk["kid"] == "abc")
        #expect(jwk["e"] == "AQAB")
        #expect(Data(base64URLEncoded: jwk["n"] ?? "")?.count == 256)
        let decoded = try JSONDecoder().decode(JSONWebKeySet.self, from: JSONEncoder().encode(set))
        #expect(try decoded.key(withId: "abc")?.publicKey().derRepresentation == key.publicKey.derRepresentation)
        #expect(decoded.key(withId: "other") == nil)
    }

    @Test func pkcs8PEMRoundTrips() throws {
        let key = try Keys.signing.get()
        let pem = RSAKeyPEM.pkcs8PEM(of: key)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.contains("-----END PRIVATE KEY-----"))
        let back = try RSAKeyPEM.privateKey(pem: pem)
        #expect(back.publicKey.derRepresentation == key.publicKey.derRepresentation)
        #expect(throws: (any Error).self) {
            try RSAKeyPEM.privateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        }
    }

    @Test func base64URLDecodingRefusesOtherAlphabets() {
        #expect(Data(base64URLEncoded: "AQAB") == Data([1, 0, 1]))
        #expect(Data(base64URLEncoded: "-_8") == Data([0xFB, 0xFF]))
        #expect(Data(base64URLEncoded: "+/8") == nil)
        #expect(Data(base64URLEncoded: "AQ==") == nil)
        #expect(Data(base64URLEncoded: "A") == nil)
        #expect(Data([0xFB, 0xFF]).base64URLEncodedString == "-_8")
    }
}
