import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import Foundation
import LedgerTestSupport
import Testing

/// Receipts signed in the test: every field decodes, every failure has its code.
struct ReceiptRejectionTests {
    let signer = try! ReceiptSigner(chain: OwnVectors.rsaChain)
    let verifier = ReceiptVerifier(roots: OwnVectors.rsaRoots)

    @Test(arguments: [
        ReceiptSigningOptions(digest: .sha256, encoding: .der),
        ReceiptSigningOptions(digest: .sha1, encoding: .der),
        ReceiptSigningOptions(digest: .sha256, encoding: .ber),
        ReceiptSigningOptions(digest: .sha1, encoding: .berIndefiniteLength(chunkSize: 7)),
    ])
    func everyFieldRoundTrips(options: ReceiptSigningOptions) async throws {
        let receipt = OwnVectors.receipt()
        let signer = try ReceiptSigner(chain: OwnVectors.rsaChain, options: options)
        let verified = try await verifier.verify(try signer.sign(receipt))
        var decoded = verified.receipt
        #expect(!decoded.bundleIdData.isEmpty)
        decoded.bundleIdData = receipt.bundleIdData
        // DER sorts a SET OF by encoding, so purchases come back in another order.
        decoded.inAppPurchases.sort { $0.transactionId < $1.transactionId }
        #expect(decoded == receipt)
        #expect(verified.digestAlgorithm == (options.digest == .sha1 ? "SHA-1" : "SHA-256"))
    }

    @Test func base64TextWithLineBreaksVerifies() async throws {
        let der = try signer.sign(OwnVectors.receipt())
        let text = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        _ = try await verifier.verify(base64Encoded: text)
        _ = try await verifier.verify(Array(text.utf8))
    }

    @Test func unknownAttributesAreSkipped() async throws {
        let receipt = OwnVectors.receipt(purchases: 1)
        var purchase = try ReceiptPayloadEncoder.attributes(for: receipt.inAppPurchases[0])
        purchase.append(try .utf8String(1799, "future in-app field"))
        var attributes = try ReceiptPayloadEncoder.attributes(
            for: AppReceipt(
                receiptType: receipt.receiptType, bundleId: receipt.bundleId, appVersion: receipt.appVersion,
                creationDate: receipt.creationDate))
        attributes.append(try .set(ReceiptAttributeType.inAppPurchase, purchase))
        attributes.append(try .integer(9999, 7))
        attributes.append(.raw(8, [0xFF, 0x00]))
        let verified = try await verifier.verify(try signer.sign(payload: ReceiptPayloadEncoder.encode(attributes)))
        #expect(verified.receipt.inAppPurchases == receipt.inAppPurchases)
    }

    @Test func tamperedContentFailsTheSignature() async throws {
        let payload = try ReceiptPayloadEncoder.encode(OwnVectors.receipt())
        var tamperedReceipt = OwnVectors.receipt()
        tamperedReceipt.inAppPurchases[0].quantity = 1000
        let tampered = try ReceiptPayloadEncoder.encode(tamperedReceipt)
        let forged = try signer.sign(payload: tampered, signature: try signer.signature(over: payload))
        await expectRejection(.signatureInvalid) { _ = try await verifier.verify(forged) }
    }

    @Test func tamperedSignatureAndWrongKeyFail() async throws {
        let payload = try ReceiptPayloadEncoder.encode(OwnVectors.receipt())
        var signature = try signer.signature(over: payload)
        signature[17] ^= 0x80
        await expectRejection(.signatureInvalid) {
            _ = try await verifier.verify(try signer.sign(payload: payload, signature: signature))
        }
        let otherKey = try ReceiptSigner(chain: SigningChain.generate(.rsa2048))
        let wrongKey = try signer.sign(payload: payload, signature: try otherKey.signature(over: payload))
        await expectRejection(.signatureInvalid) { _ = try await verifier.verify(wrongKey) }
    }

    @Test func applesRootsRejectOurReceipts() async throws {
        let receipt = try signer.sign(OwnVectors.receipt())
        await expectRejection(.chainUntrusted) { _ = try await ReceiptVerifier().verify(receipt) }
    }

    @Test func lookAlikeChainUnderAnotherRootFails() async throws {
        let genuine = try SigningChain.generate(.rsa2048, options: .appleNamed(for: .rsa2048))
        let lookAlike = try SigningChain.generate(.rsa2048, options: .appleNamed(for: .rsa2048))
        let receipt = try ReceiptSigner(chain: lookAlike).sign(OwnVectors.receipt())
        await expectRejection(.chainUntrusted) {
            _ = try await ReceiptVerifier(roots: TrustRoots([genuine.root])).verify(receipt)
        }
    }

    @Test func missingMarkersAndCertificatesFail() async throws {
        let unmarked = try SigningChain.generate(
            .rsa2048, options: SigningChainOptions.standard(for: .rsa2048).withoutAppleMarkers())
        let receipt = try ReceiptSigner(chain: unmarked).sign(OwnVectors.receipt())
        await expectRejection(.missingAppleExtension) {
            _ = try await ReceiptVerifier(roots: TrustRoots([unmarked.root])).verify(receipt)
        }

        let leafOnly = try ReceiptSigner(
            chain: OwnVectors.rsaChain,
            options: ReceiptSigningOptions(certificates: .custom([OwnVectors.rsaChain.leafCertificateDER]))
        )
        await expectRejection(.chainUntrusted) {
            _ = try await verifier.verify(try leafOnly.sign(OwnVectors.receipt()))
        }
        let none = try ReceiptSigner(chain: OwnVectors.rsaChain, options: ReceiptSigningOptions(certificates: .omitted))
        await expectRejection(.missingCertificates) {
            _ = try await verifier.verify(try none.sign(OwnVectors.receipt()))
        }
    }

    @Test func validityIsJudgedAtTheCreationDate() async throws {
        let now = Date()
        var options = SigningChainOptions.standard(for: .rsa2048, now: now)
        options.leaf.notValidBefore = now.addingTimeInterval(-30 * 86_400)
        options.leaf.notValidAfter = now.addingTimeInterval(-86_400)
        let expired = try SigningChain.generate(.rsa2048, options: options)
        let signer = try ReceiptSigner(chain: expired)
        let verifier = ReceiptVerifier(roots: TrustRoots([expired.root]))
        _ = try await verifier.verify(
            try signer.sign(OwnVectors.receipt(createdAt: now.addingTimeInterval(-10 * 86_400))))
        let late = try signer.sign(OwnVectors.receipt(createdAt: now))
        await expectRejection(.certificateNotValidAtSigningTime) { _ = try await verifier.verify(late) }
    }

    @Test func malformedInputFailsWithItsCode() async throws {
        let der = try signer.sign(OwnVectors.receipt())
        await expectRejection(.malformedContainer) { _ = try await verifier.verify(Array(der.prefix(der.count / 2))) }
        await expectRejection(.malformedContainer) { _ = try await verifier.verify([0x30, 0x03, 0x02, 0x01, 0x01]) }
        await expectRejection(.malformedEncoding) { _ = try await verifier.verify(base64Encoded: "MIIB*not base64*") }
        await expectRejection(.malformedEncoding) { _ = try await verifier.verify(base64Encoded: "") }
        let iOS6 = Data("{\n\t\"signature\" = \"AkB3\";\n\t\"purchase-info\" = \"ewo=\";\n}".utf8).base64EncodedString()
        await expectRejection(.unsupportedReceiptFormat) { _ = try await verifier.verify(base64Encoded: iOS6) }
        await expectRejection(.malformedPayload) {
            _ = try await verifier.verify(try signer.sign(payload: [0x31, 0x00]))
        }
        await expectRejection(.malformedPayload) {
            _ = try await verifier.verify(try signer.sign(payload: Array("garbage".utf8)))
        }
        await expectRejection(.inputTooLarge) {
            _ = try await verifier.verify([UInt8](repeating: 0x30, count: ReceiptVerifier.maximumSize + 1))
        }
    }

    @Test func randomAndMutatedBytesNeverCrashOrVerify() async throws {
        let der = try signer.sign(OwnVectors.receipt())
        let original = try await verifier.verify(der).receipt
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<300 {
            var mutated = der
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            if let receipt = try? await verifier.verify(mutated).receipt {
                #expect(receipt == original, "a mutation verified with different content")
            }
        }
        for _ in 0..<200 {
            let random = (0..<Int.random(in: 0..<600, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            await #expect(throws: VerificationError.self) { _ = try await verifier.verify(random) }
        }
        // Deep nesting is refused by the parser, not by the stack.
        let deep = (0..<10_000).map { UInt8($0 % 2 == 0 ? 0x30 : 0x80) }
        await #expect(throws: VerificationError.self) { _ = try await verifier.verify(deep) }
    }
}
