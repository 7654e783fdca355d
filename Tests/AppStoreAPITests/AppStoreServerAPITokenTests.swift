import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import Crypto
import Foundation
import Testing

@Suite("App Store Server API tokens")
struct AppStoreServerAPITokenTests {
    /// Verifies `token` at `now` and returns the rejection code, or `nil` when accepted.
    private func rejection(
        _ token: String, verifier: AppStoreServerAPITokenVerifier, at now: Date = Fixture.now
    ) -> AppStoreServerAPITokenError.Code? {
        do {
            _ = try verifier.verify(token, at: now)
            return nil
        } catch {
            return error.code
        }
    }

    private func claims(
        issuer: String = Fixture.issuerId, audience: String = AppStoreServerAPIClaims.audience,
        bundleId: String = Fixture.bundleId, issuedAt: Date = Fixture.now, lifetime: Int64 = 1200
    ) -> AppStoreServerAPIClaims {
        let iat = Int64(issuedAt.timeIntervalSince1970)
        return AppStoreServerAPIClaims(
            issuerId: issuer, issuedAt: iat, expiresAt: iat + lifetime, audience: audience, bundleId: bundleId)
    }

    @Test("a token has Apple's header, claims and a raw 64-byte ES256 signature, and verifies")
    func roundTrip() throws {
        let key = try Fixture.key()
        let token = try key.makeToken(issuedAt: Fixture.now, lifetime: 1200)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        for part in parts {
            #expect(!part.contains("=") && !part.contains("+") && !part.contains("/"))
        }
        let header = String(decoding: try #require(base64URLDecode(parts[0])), as: UTF8.self)
        #expect(header == #"{"alg":"ES256","kid":"2X9R4HXF34","typ":"JWT"}"#)
        let payload = String(decoding: try #require(base64URLDecode(parts[1])), as: UTF8.self)
        #expect(
            payload
                == #"{"aud":"appstoreconnect-v1","bid":"com.example.storekeeper","exp":1709295600,"iat":1709294400,"iss":"57246542-96fe-1a63-e053-0824d011072a"}"#
        )
        let signature = try #require(base64URLDecode(parts[2]))
        #expect(signature.count == 64)
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(key.publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8)))

        let verified = try Fixture.verifier(for: key).verify(token, at: Fixture.now.addingTimeInterval(600))
        #expect(verified.issuerId == Fixture.issuerId)
        #expect(verified.bundleId == Fixture.bundleId)
        #expect(verified.audience == "appstoreconnect-v1")
        #expect(verified.issueDate == Fixture.now)
        #expect(verified.lifetime == 1200)
    }

    @Test("the Authorization header form is accepted; a missing or non-bearer header is missing_token")
    func authorizationHeader() throws {
        let key = try Fixture.key()
        let verifier = Fixture.verifier(for: key)
        let token = try key.makeToken(issuedAt: Fixture.now)
        #expect(throws: Never.self) { try verifier.verify(authorizationHeader: "Bearer " + token, at: Fixture.now) }
        #expect(throws: Never.self) { try verifier.verify(authorizationHeader: "bearer " + token, at: Fixture.now) }
        for header in [nil, "", "Bearer ", "Basic dXNlcjpwYXNz", token] as [String?] {
            #expect(throws: AppStoreServerAPITokenError.self) {
                try verifier.verify(authorizationHeader: header, at: Fixture.now)
            }
            do {
                _ = try verifier.verify(authorizationHeader: header, at: Fixture.now)
            } catch {
                #expect(error.code == .missingToken)
            }
        }
    }

    @Test("keys load from .p8 PEM, export PKCS#8 PEM, and a generated key round-trips")
    func pem() throws {
        let key = try Fixture.key()
        #expect(key.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(key.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(!key.description.contains("PRIVATE") && key.description.contains(Fixture.keyId))

        let generated = AppStoreServerAPIKey.generate(issuerId: "issuer", keyId: "KEY1", bundleId: "com.example.b")
        let reloaded = try AppStoreServerAPIKey(
            issuerId: "issuer", keyId: "KEY1", bundleId: "com.example.b", privateKeyPEM: generated.privateKeyPEM)
        #expect(reloaded.publicKey.rawRepresentation == generated.publicKey.rawRepresentation)
        #expect(generated.publicKey.rawRepresentation != key.publicKey.rawRepresentation)

        let verifier = AppStoreServerAPITokenVerifier(
            key: try .init(
                keyId: "KEY1", issuerId: "issuer", bundleId: "com.example.b", publicKeyPEM: generated.publicKeyPEM))
        #expect(throws: Never.self) { try verifier.verify(reloaded.makeToken(issuedAt: Fixture.now), at: Fixture.now) }

        #expect(throws: AppStoreServerAPIKeyError.self) {
            try AppStoreServerAPIKey(issuerId: "i", keyId: "k", bundleId: "b", privateKeyPEM: "not a key")
        }
    }

    @Test("makeToken refuses lifetimes Apple would reject", arguments: [0, -5, 3601, 86_400] as [TimeInterval])
    func lifetimeLimit(lifetime: TimeInterval) throws {
        let key = try Fixture.key()
        #expect(throws: AppStoreServerAPIKeyError.invalidLifetime(lifetime)) {
            try key.makeToken(issuedAt: Fixture.now, lifetime: lifetime)
        }
    }

    @Test("a changed payload or signature is signature_invalid")
    func tampered() throws {
        let key = try Fixture.key()
        let verifier = Fixture.verifier(for: key)
        let token = try key.makeToken(issuedAt: Fixture.now)
        let parts = token.split(separator: ".").map(String.init)

        var claims = try JSONDecoder().decode(AppStoreServerAPIClaims.self, from: #require(base64URLDecode(parts[1])))
        claims.bundleId = "com.example.other"
        let forgedPayload = base64URLEncode(try JSONEncoder().encode(claims))
        #expect(
            rejection([parts[0], forgedPayload, parts[2]].joined(separator: "."), verifier: verifier)
                == .signatureInvalid)

        var signature = try #require(base64URLDecode(parts[2]))
        signature[10] ^= 0x01
        #expect(
            rejection([parts[0], parts[1], base64URLEncode(signature)].joined(separator: "."), verifier: verifier)
                == .signatureInvalid)
        #expect(rejection(parts[0] + "." + parts[1] + ".", verifier: verifier) == .signatureInvalid)
        #expect(rejection(parts[0] + "." + parts[1] + ".AAAA", verifier: verifier) == .signatureInvalid)
    }

    @Test("a token signed by another key under the registered kid is signature_invalid")
    func otherKey() throws {
        let key = try Fixture.key()
        let impostor = AppStoreServerAPIKey.generate(
            issuerId: Fixture.issuerId, keyId: Fixture.keyId, bundleId: Fixture.bundleId)
        let token = try impostor.makeToken(issuedAt: Fixture.now)
        #expect(rejection(token, verifier: Fixture.verifier(for: key)) == .signatureInvalid)
    }

    @Test("an unregistered or absent kid is unknown_key")
    func unknownKey() throws {
        let key = try Fixture.key()
        let verifier = Fixture.verifier(for: key)
        let unknown = try key.signToken(claims: claims(), header: JWSHeader(alg: "ES256", kid: "OTHERKEY", typ: "JWT"))
        #expect(rejection(unknown, verifier: verifier) == .unknownKey)
        let absent = try key.signToken(claims: claims(), header: JWSHeader(alg: "ES256", typ: "JWT"))
        #expect(rejection(absent, verifier: verifier) == .unknownKey)
    }

    @Test("an alg other than ES256 is unsupported_algorithm", arguments: ["HS256", "RS256", "none", "es256"])
    func algorithm(alg: String) throws {
        let key = try Fixture.key()
        let token = try key.signToken(claims: claims(), header: JWSHeader(alg: alg, kid: Fixture.keyId, typ: "JWT"))
        #expect(rejection(token, verifier: Fixture.verifier(for: key)) == .unsupportedAlgorithm)
        let unsigned = token.split(separator: ".")[0...1].joined(separator: ".") + "."
        #expect(rejection(unsigned, verifier: Fixture.verifier(for: key)) == .unsupportedAlgorithm)
    }

    @Test("claims that name another audience, issuer or app are rejected with their own codes")
    func wrongClaims() throws {
        let key = try Fixture.key()
        let verifier = Fixture.verifier(for: key)
        #expect(
            rejection(try key.signToken(claims: claims(audience: "appstoreconnect-v2")), verifier: verifier)
                == .wrongAudience)
        #expect(
            rejection(try key.signToken(claims: claims(issuer: "someone-else")), verifier: verifier) == .wrongIssuer)
        #expect(
            rejection(try key.signToken(claims: claims(bundleId: "com.example.other")), verifier: verifier)
                == .wrongBundleId)
    }

    @Test("a key registered for several apps accepts each of them")
    func severalApps() throws {
        let key = try Fixture.key()
        let verifier = AppStoreServerAPITokenVerifier(
            keys: [
                .init(
                    keyId: Fixture.keyId, issuerId: Fixture.issuerId, bundleIds: [Fixture.bundleId, "com.example.two"],
                    publicKey: key.publicKey)
            ])
        #expect(rejection(try key.signToken(claims: claims(bundleId: "com.example.two")), verifier: verifier) == nil)
        #expect(
            rejection(try key.signToken(claims: claims(bundleId: "com.example.three")), verifier: verifier)
                == .wrongBundleId)
    }

    @Test("expiry and issue time are checked with 60 seconds of clock skew")
    func time() throws {
        let key = try Fixture.key()
        let verifier = Fixture.verifier(for: key)
        let token = try key.makeToken(issuedAt: Fixture.now, lifetime: 1200)
        #expect(rejection(token, verifier: verifier, at: Fixture.now) == nil)
        #expect(rejection(token, verifier: verifier, at: Fixture.now.addingTimeInterval(1200 + 59)) == nil)
        #expect(rejection(token, verifier: verifier, at: Fixture.now.addingTimeInterval(1200 + 60)) == .tokenExpired)
        #expect(rejection(token, verifier: verifier, at: Fixture.now.addingTimeInterval(7200)) == .tokenExpired)
        #expect(rejection(token, verifier: verifier, at: Fixture.now.addingTimeInterval(-60)) == nil)
        #expect(rejection(token, verifier: verifier, at: Fixture.now.addingTimeInterval(-61)) == .notYetValid)
        #expect(rejection(token, verifier: verifier, at: Fixture.now.addingTimeInterval(-3600)) == .notYetValid)
    }

    @Test("exp more than 60 minutes after iat, or not after it, is lifetime_too_long")
    func lifetimeTooLong() throws {
        let key = try Fixture.key()
        let verifier = Fixture.verifier(for: key)
        #expect(rejection(try key.signToken(claims: claims(lifetime: 3600)), verifier: verifier) == nil)
        #expect(rejection(try key.signToken(claims: claims(lifetime: 3601)), verifier: verifier) == .lifetimeTooLong)
        #expect(rejection(try key.signToken(claims: claims(lifetime: 0)), verifier: verifier) == .lifetimeTooLong)
        #expect(rejection(try key.signToken(claims: claims(lifetime: -10)), verifier: verifier) == .lifetimeTooLong)
    }

    @Test("a token without iat, as Apple's server libraries send it, is held to exp within 60 minutes of now")
    func withoutIssuedAt() throws {
        let key = try Fixture.key()
        let verifier = Fixture.verifier(for: key)
        let now = Int64(Fixture.now.timeIntervalSince1970)
        func token(expiresIn seconds: Int64) throws -> String {
            try key.signToken(
                claims: AppStoreServerAPIClaims(
                    issuerId: Fixture.issuerId, issuedAt: nil, expiresAt: now + seconds, bundleId: Fixture.bundleId))
        }
        let payload = try #require(base64URLDecode(try token(expiresIn: 300).split(separator: ".")[1]))
        #expect(!String(decoding: payload, as: UTF8.self).contains("iat"))
        #expect(rejection(try token(expiresIn: 300), verifier: verifier) == nil)
        #expect(rejection(try token(expiresIn: 3600 + 60), verifier: verifier) == nil)
        #expect(rejection(try token(expiresIn: 3600 + 61), verifier: verifier) == .lifetimeTooLong)
        #expect(rejection(try token(expiresIn: 86_400), verifier: verifier) == .lifetimeTooLong)
        #expect(rejection(try token(expiresIn: -61), verifier: verifier) == .tokenExpired)
        let verified = try verifier.verify(try token(expiresIn: 300), at: Fixture.now)
        #expect(verified.issuedAt == nil && verified.issueDate == nil && verified.lifetime == nil)
    }

    @Test("text that is not a signed JWT with the required claims is malformed_token")
    func malformed() throws {
        let key = try Fixture.key()
        let verifier = Fixture.verifier(for: key)
        let header = base64URLEncode(Data(#"{"alg":"ES256","kid":"2X9R4HXF34","typ":"JWT"}"#.utf8))
        for token in [
            "", "abc", "a.b", "a.b.c.d", ".e30.sig", "%%%.e30.sig", base64URLEncode(Data("[1]".utf8)) + ".e30.x",
        ] {
            #expect(rejection(token, verifier: verifier) == .malformedToken, "\(token)")
        }
        #expect(rejection(String(repeating: "a", count: 9000) + ".b.c", verifier: verifier) == .malformedToken)

        // A valid signature over claims that lack `bid`.
        let incomplete = Data(#"{"aud":"appstoreconnect-v1","exp":1709295600,"iat":1709294400,"iss":"x"}"#.utf8)
        let input = header + "." + base64URLEncode(incomplete)
        let signature = try key.privateKey.signature(for: Data(input.utf8)).rawRepresentation
        #expect(rejection(input + "." + base64URLEncode(signature), verifier: verifier) == .malformedToken)
    }

    @Test("NumericDate claims with a fraction decode; reason codes are stable snake_case")
    func claimsAndCodes() throws {
        let json = #"{"iss":"i","iat":1709294400.75,"exp":1709295600,"aud":"appstoreconnect-v1","bid":"b","nonce":"x"}"#
        let claims = try JSONDecoder().decode(AppStoreServerAPIClaims.self, from: Data(json.utf8))
        #expect(claims.issuedAt == 1_709_294_400 && claims.expiresAt == 1_709_295_600)
        #expect(
            AppStoreServerAPITokenError.Code.allCases.map(\.rawValue) == [
                "missing_token", "malformed_token", "unsupported_algorithm", "unknown_key", "signature_invalid",
                "wrong_audience", "wrong_issuer", "wrong_bundle_id", "token_expired", "lifetime_too_long",
                "not_yet_valid",
            ])
    }
}
