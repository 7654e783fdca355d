import AppStoreModel
import AppStoreSigning
import Foundation
import Testing

@testable import AppStoreVerification

/// A receipt verified from the chain cache (certificates only sliced, never parsed)
/// gives what a full verification gives, and the cache never lets changed bytes through.
struct ReceiptChainCacheTests {
    @Test(arguments: ["receipts/receipt-production.b64", "receipts/receipt-sandbox-legacy.b64"])
    func cacheHitAndMissGiveTheSameResult(path: String) async throws {
        let bytes = Array(try TestVectors.data(path))
        let verifier = ReceiptVerifier()
        let miss = try await verifier.verify(bytes)
        #expect(verifier.cachedChainCount == 1)
        let hit = try await verifier.verify(bytes)
        #expect(verifier.cachedChainCount == 1)
        #expect(hit.receipt == miss.receipt)
        #expect(hit.digestAlgorithm == miss.digestAlgorithm)
        #expect(hit.certificateChain == miss.certificateChain)
        let fresh = try await ReceiptVerifier().verify(bytes)
        #expect(fresh.receipt == hit.receipt)
    }

    @Test func derAndIndefiniteBERShareOneCachedChain() async throws {
        let receipt = OwnVectors.receipt()
        let der = try ReceiptSigner(chain: OwnVectors.rsaChain, options: ReceiptSigningOptions(encoding: .der))
            .sign(receipt)
        let ber = try ReceiptSigner(
            chain: OwnVectors.rsaChain, options: ReceiptSigningOptions(encoding: .berIndefiniteLength(chunkSize: 7))
        ).sign(receipt)
        #expect(der != ber)
        let verifier = ReceiptVerifier(roots: OwnVectors.rsaRoots)
        let fromDER = try await verifier.verify(der)
        let fromBER = try await verifier.verify(ber)
        #expect(verifier.cachedChainCount == 1, "the BER receipt carries the same certificates")
        #expect(fromBER.receipt == fromDER.receipt)
        #expect(fromBER.certificateChain == fromDER.certificateChain)
    }

    @Test func tamperedContentFailsOnTheWarmPath() async throws {
        let signer = try ReceiptSigner(chain: OwnVectors.rsaChain)
        let verifier = ReceiptVerifier(roots: OwnVectors.rsaRoots)
        let payload = try ReceiptPayloadEncoder.encode(OwnVectors.receipt())
        let signature = try signer.signature(over: payload)
        _ = try await verifier.verify(try signer.sign(payload: payload, signature: signature))
        var tampered = OwnVectors.receipt()
        tampered.bundleId = "com.example.other"
        let forged = try signer.sign(payload: ReceiptPayloadEncoder.encode(tampered), signature: signature)
        await expectRejection(.signatureInvalid) { _ = try await verifier.verify(forged) }
        #expect(verifier.cachedChainCount == 1)
    }

    @Test func aChangedCertificateByteMissesTheCacheAndIsRefused() async throws {
        let verifier = ReceiptVerifier()
        let original = Array(try TestVectors.data("receipts/receipt-production.b64"))
        _ = try await verifier.verify(original)
        var der = try #require(Base64.decode(original, alphabet: .standard))
        // A byte inside the signature value at the end of the leaf, the first certificate.
        let leafEnd = try PKCS7SignedData(berEncoded: der).certificateEncodings[0].endIndex
        der[leafEnd - 10] ^= 0x01
        await expectRejection(.chainUntrusted) { _ = try await verifier.verify(der) }
        #expect(verifier.cachedChainCount == 1, "a failed validation is not cached")
    }

    @Test func theWarmPathStillJudgesValidityAtTheCreationDate() async throws {
        let now = Date()
        var options = SigningChainOptions.standard(for: .rsa2048, now: now)
        options.leaf.notValidBefore = now.addingTimeInterval(-30 * 86_400)
        options.leaf.notValidAfter = now.addingTimeInterval(-86_400)
        let expired = try SigningChain.generate(.rsa2048, options: options)
        let signer = try ReceiptSigner(chain: expired)
        let verifier = ReceiptVerifier(roots: TrustRoots([expired.root]))
        _ = try await verifier.verify(
            try signer.sign(OwnVectors.receipt(createdAt: now.addingTimeInterval(-10 * 86_400))))
        #expect(verifier.cachedChainCount == 1)
        let late = try signer.sign(OwnVectors.receipt(createdAt: now))
        await expectRejection(.certificateNotValidAtSigningTime) { _ = try await verifier.verify(late) }
    }
}
