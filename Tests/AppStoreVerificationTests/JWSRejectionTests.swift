import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import Foundation
import LedgerTestSupport
import Testing

/// Every way a JWS can fail, each with its own code, on chains made in the test.
struct JWSRejectionTests {
    let signer = try! JWSSigner(chain: OwnVectors.es256Chain)
    let verifier = JWSVerifier(roots: OwnVectors.es256Roots)

    @Test func ownChainVerifiesAndDecodes() async throws {
        let transaction = try await verifier.verifyTransaction(try signer.sign(OwnVectors.transaction()))
        #expect(transaction.transactionId == "2000000000000001")
        #expect(transaction.appAccountTokenUUID == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"))
    }

    @Test func ownChainFailsWithApplesRoots() async throws {
        let jws = try signer.sign(OwnVectors.transaction())
        await expectRejection(.chainUntrusted) { _ = try await JWSVerifier().verifyTransaction(jws) }
    }

    @Test func tamperedPayloadFailsTheSignature() async throws {
        let jws = try signer.sign(OwnVectors.transaction())
        var tampered = OwnVectors.transaction()
        tampered.quantity = 100
        let forged = OwnVectors.replacingSegment(1, of: jws, with: try JWSSigner.makeJSONEncoder().encode(tampered))
        await expectRejection(.signatureInvalid) { _ = try await verifier.verifyTransaction(forged) }
    }

    @Test func tamperedSignatureFails() async throws {
        let jws = try signer.sign(OwnVectors.transaction())
        var signature = try #require(Data(base64Encoded: base64(String(jws.split(separator: ".")[2]))))
        signature[10] ^= 0x01
        let forged = OwnVectors.replacingSegment(2, of: jws, with: signature)
        await expectRejection(.signatureInvalid) { _ = try await verifier.verifyTransaction(forged) }
        let short = OwnVectors.replacingSegment(2, of: jws, with: signature.prefix(32))
        await expectRejection(.signatureInvalid) { _ = try await verifier.verifyTransaction(short) }
    }

    @Test func aKeyOtherThanTheLeafsFails() async throws {
        let other = try JWSSigner(chain: SigningChain.generate(.es256))
        let forged = try other.sign(OwnVectors.transaction(), header: .apple(for: OwnVectors.es256Chain))
        await expectRejection(.signatureInvalid) { _ = try await verifier.verifyTransaction(forged) }
    }

    @Test(arguments: ["none", "HS256", "RS256", "ES384"])
    func algorithmsOtherThanES256Fail(alg: String) async throws {
        let chain = OwnVectors.es256Chain
        let header = JWSHeader(
            alg: alg,
            certificatesDER: [chain.leafCertificateDER, chain.intermediateCertificateDER, chain.rootCertificateDER]
        )
        let jws = try signer.sign(OwnVectors.transaction(), header: header)
        await expectRejection(.unsupportedAlgorithm) { _ = try await verifier.verifyTransaction(jws) }
    }

    @Test func twoCertificatesFail() async throws {
        let chain = OwnVectors.es256Chain
        let header = JWSHeader(certificatesDER: [chain.leafCertificateDER, chain.intermediateCertificateDER])
        let jws = try signer.sign(OwnVectors.transaction(), header: header)
        await expectRejection(.missingCertificates) { _ = try await verifier.verifyTransaction(jws) }
        let none = try signer.sign(OwnVectors.transaction(), header: JWSHeader())
        await expectRejection(.missingCertificates) { _ = try await verifier.verifyTransaction(none) }
    }

    @Test func theRootTheDataCarriesIsNeverTrusted() async throws {
        let chain = OwnVectors.es256Chain
        let attacker = try SigningChain.generate(.es256)
        // The genuine chain with a foreign x5c[2] still verifies: x5c[2] is not consulted.
        let foreignRoot = JWSHeader(
            certificatesDER: [chain.leafCertificateDER, chain.intermediateCertificateDER, attacker.rootCertificateDER]
        )
        _ = try await verifier.verifyTransaction(try signer.sign(OwnVectors.transaction(), header: foreignRoot))
        // An attacker's complete chain, root included, does not.
        let forged = try JWSSigner(chain: attacker).sign(OwnVectors.transaction())
        await expectRejection(.chainUntrusted) { _ = try await verifier.verifyTransaction(forged) }
    }

    @Test func lookAlikeChainUnderAnotherRootFails() async throws {
        let genuine = try SigningChain.generate(.es256, options: .appleNamed(for: .es256))
        let lookAlike = try SigningChain.generate(.es256, options: .appleNamed(for: .es256))
        #expect(genuine.root.subject == lookAlike.root.subject)
        let jws = try JWSSigner(chain: lookAlike).sign(OwnVectors.transaction())
        await expectRejection(.chainUntrusted) {
            _ = try await JWSVerifier(roots: TrustRoots([genuine.root])).verifyTransaction(jws)
        }
    }

    @Test func missingAppleMarkersFail() async throws {
        let unmarked = try SigningChain.generate(
            .es256, options: SigningChainOptions.standard(for: .es256).withoutAppleMarkers())
        let jws = try JWSSigner(chain: unmarked).sign(OwnVectors.transaction())
        await expectRejection(.missingAppleExtension) {
            _ = try await JWSVerifier(roots: TrustRoots([unmarked.root])).verifyTransaction(jws)
        }
        var leafOnly = SigningChainOptions.standard(for: .es256)
        leafOnly.leaf.appleMarker = nil
        let noLeafMarker = try SigningChain.generate(.es256, options: leafOnly)
        let leafJWS = try JWSSigner(chain: noLeafMarker).sign(OwnVectors.transaction())
        await expectRejection(.missingAppleExtension) {
            _ = try await JWSVerifier(roots: TrustRoots([noLeafMarker.root])).verifyTransaction(leafJWS)
        }
    }

    @Test func validityIsJudgedAtTheSigningTime() async throws {
        let now = Date()
        var options = SigningChainOptions.standard(for: .es256, now: now)
        options.leaf.notValidBefore = now.addingTimeInterval(-30 * 86_400)
        options.leaf.notValidAfter = now.addingTimeInterval(-86_400)
        let expired = try SigningChain.generate(.es256, options: options)
        let signer = try JWSSigner(chain: expired)
        let verifier = JWSVerifier(roots: TrustRoots([expired.root]))
        // Signed while the leaf was valid: verifies today although the leaf has expired.
        let before = try signer.sign(OwnVectors.transaction(signedAt: now.addingTimeInterval(-10 * 86_400)))
        _ = try await verifier.verifyTransaction(before)
        // Signed after the leaf expired: rejected, also when the chain is already cached.
        let after = try signer.sign(OwnVectors.transaction(signedAt: now))
        await expectRejection(.certificateNotValidAtSigningTime) { _ = try await verifier.verifyTransaction(after) }
        await expectRejection(.certificateNotValidAtSigningTime) {
            _ = try await JWSVerifier(roots: TrustRoots([expired.root])).verifyTransaction(after)
        }
    }

    @Test func truncatedRandomAndMalformedInputFail() async throws {
        let jws = try signer.sign(OwnVectors.transaction())
        await expectRejection(.malformedContainer) { _ = try await verifier.verifyTransaction("") }
        await expectRejection(.malformedContainer) { _ = try await verifier.verifyTransaction(String(jws.prefix(100))) }
        await expectRejection(.signatureInvalid) { _ = try await verifier.verifyTransaction(String(jws.dropLast(4))) }
        await expectRejection(.malformedEncoding) { _ = try await verifier.verifyTransaction("a.b!c.d") }
        await expectRejection(.malformedPayload) {
            _ = try await verifier.verifyTransaction(OwnVectors.replacingSegment(1, of: jws, with: Data("[1,2]".utf8)))
        }
        await expectRejection(.malformedContainer) {
            _ = try await verifier.verifyTransaction(
                OwnVectors.replacingSegment(0, of: jws, with: Data("{\"alg\":".utf8)))
        }
        await expectRejection(.inputTooLarge) {
            _ = try await verifier.verifyTransaction(jws + String(repeating: "A", count: 300_000))
        }
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let length = Int.random(in: 0..<400, using: &generator)
            let random = String((0..<length).map { _ in "ABCxyz019-_.=+/ {}\"".randomElement(using: &generator)! })
            await #expect(throws: VerificationError.self) { _ = try await verifier.verifyTransaction(random) }
        }
    }

    @Test func mutatedDataNeverCrashesOrVerifies() async throws {
        let signed = try signer.sign(OwnVectors.transaction())
        let original = try await verifier.verifyTransaction(signed)
        let jws = Array(signed.utf8)
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<300 {
            var mutated = jws
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0..<mutated.count, using: &generator)
                mutated[position] = UInt8.random(in: 0x2D...0x7A, using: &generator)
            }
            guard mutated != jws else { continue }
            do {
                let payload = try await verifier.verifyTransaction(String(decoding: mutated, as: UTF8.self))
                // Base64 has slack bits: a mutation that decodes to the same bytes is not a forgery.
                #expect(payload == original)
            } catch {}
        }
    }

    @Test func policyChecksBundleEnvironmentAndAppAppleId() async throws {
        let jws = try signer.sign(OwnVectors.transaction())
        let roots = OwnVectors.es256Roots
        await expectRejection(.bundleIdMismatch) {
            _ = try await JWSVerifier(roots: roots, policy: VerificationPolicy(bundleId: "com.other"))
                .verifyTransaction(jws)
        }
        await expectRejection(.environmentMismatch) {
            _ = try await JWSVerifier(roots: roots, policy: VerificationPolicy(environments: [.production]))
                .verifyTransaction(jws)
        }
        let notification = try signer.sign(
            ResponseBodyV2DecodedPayload(
                notificationType: .test,
                notificationUUID: UUID().uuidString,
                data: NotificationData(appAppleId: 99, bundleId: "com.example.game", environment: .sandbox),
                signedDate: OwnVectors.milliseconds(Date())
            )
        )
        await expectRejection(.appAppleIdMismatch) {
            _ = try await JWSVerifier(roots: roots, policy: VerificationPolicy(appAppleId: 100)).verifyNotification(
                notification)
        }
        _ = try await JWSVerifier(
            roots: roots, policy: VerificationPolicy(bundleId: "com.example.game", appAppleId: 99)
        )
        .verifyNotification(notification)
    }

    @Test func nestedSignedDataIsVerifiedNotOnlyDecoded() async throws {
        let transaction = try signer.sign(OwnVectors.transaction())
        func notification(carrying nested: String) throws -> String {
            try signer.sign(
                ResponseBodyV2DecodedPayload(
                    notificationType: .oneTimeCharge,
                    notificationUUID: UUID().uuidString,
                    data: NotificationData(
                        bundleId: "com.example.game", environment: .sandbox, signedTransactionInfo: nested),
                    signedDate: OwnVectors.milliseconds(Date())
                )
            )
        }
        let verified = try await verifier.verifyNotification(try notification(carrying: transaction))
        #expect(verified.transaction?.transactionId == "2000000000000001")

        let forgedNested = try JWSSigner(chain: SigningChain.generate(.es256)).sign(OwnVectors.transaction())
        await expectRejection(.chainUntrusted) {
            _ = try await verifier.verifyNotification(try notification(carrying: forgedNested))
        }
        var otherApp = OwnVectors.transaction()
        otherApp.bundleId = "com.other"
        let mismatched = try signer.sign(otherApp)
        await expectRejection(.bundleIdMismatch) {
            _ = try await verifier.verifyNotification(try notification(carrying: mismatched))
        }
    }

    @Test func chainCacheIsBoundedAndServesRepeatSigners() async throws {
        let chains = try (0..<3).map { _ in try SigningChain.generate(.es256) }
        let verifier = JWSVerifier(roots: TrustRoots(chains.map(\.root)), chainCacheCapacity: 2)
        for chain in chains {
            let signer = try JWSSigner(chain: chain)
            for index in 0..<3 {
                _ = try await verifier.verifyTransaction(try signer.sign(OwnVectors.transaction(id: "\(index)")))
            }
        }
        #expect(verifier.cachedChainCount == 2)
    }

    private func base64(_ base64url: String) -> String {
        let text = base64url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return text + String(repeating: "=", count: (4 - text.count % 4) % 4)
    }
}
