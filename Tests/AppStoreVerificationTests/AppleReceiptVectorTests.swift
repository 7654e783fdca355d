import AppStoreModel
import AppStoreVerification
import Foundation
import Testing

/// Real receipts signed by Apple and by Xcode's StoreKit testing.
struct AppleReceiptVectorTests {
    @Test func productionReceiptVerifiesWithAppleRootsAndDecodes() async throws {
        let verified = try await ReceiptVerifier().verify(
            Array(try TestVectors.data("receipts/receipt-production.b64")))
        let receipt = verified.receipt
        #expect(receipt.bundleId == "org.getpure.pure-iphone")
        #expect(receipt.receiptType == "Production")
        #expect(receipt.environment == .production)
        #expect(receipt.inAppPurchases.count == 4)
        #expect(verified.digestAlgorithm == "SHA-256")
        #expect(verified.certificateChain.count == 3)
        #expect(receipt.inAppPurchases.allSatisfy { !$0.transactionId.isEmpty && !$0.productId.isEmpty })
        let created = try #require(ISO8601DateFormatter().date(from: "2024-02-23T00:00:00Z"))
        #expect(receipt.creationDate >= created && receipt.creationDate < created.addingTimeInterval(86_400))
    }

    @Test func sandboxG5ReceiptVerifies() async throws {
        let verified = try await ReceiptVerifier().verify(
            base64Encoded: try TestVectors.text("receipts/receipt-sandbox-g5.b64"))
        #expect(verified.receipt.inAppPurchases.count == 2)
        #expect(verified.receipt.receiptType == "ProductionSandbox")
        #expect(verified.receipt.environment == .sandbox)
        #expect(verified.digestAlgorithm == "SHA-256")
    }

    @Test func legacySHA1ReceiptWith187PurchasesVerifiesAtItsCreationDate() async throws {
        let verified = try await ReceiptVerifier().verify(
            Array(try TestVectors.data("receipts/receipt-sandbox-legacy.b64")))
        #expect(verified.receipt.inAppPurchases.count == 187)
        #expect(verified.digestAlgorithm == "SHA-1")
        // The WWDR intermediate expired in 2023: only the creation date makes this pass.
        let intermediate = verified.certificateChain[1]
        #expect(intermediate.notValidAfter < Date())
        #expect(verified.receipt.creationDate < intermediate.notValidAfter)
    }

    @Test(arguments: ["receipts/receipt-xcode.b64", "receipts/receipt-xcode-with-purchases.b64"])
    func xcodeReceiptsVerifyOnlyWithTheStoreKitTestRoot(path: String) async throws {
        let bytes = Array(try TestVectors.data(path))
        let verified = try await ReceiptVerifier(roots: try TestVectors.storeKitTestRoot).verify(bytes)
        #expect(!verified.receipt.bundleId.isEmpty)
        #expect(verified.certificateChain.count == 1)
        await expectRejection(.chainUntrusted) { _ = try await ReceiptVerifier().verify(bytes) }
    }

    @Test func xcodeReceiptWithPurchasesHoldsThem() async throws {
        let verified = try await ReceiptVerifier(roots: try TestVectors.storeKitTestRoot)
            .verify(Array(try TestVectors.data("receipts/receipt-xcode-with-purchases.b64")))
        #expect(!verified.receipt.inAppPurchases.isEmpty)
    }

    @Test func appleReceiptFailsWithAnotherRoot() async throws {
        let verifier = ReceiptVerifier(roots: try TestVectors.storeKitTestRoot)
        await expectRejection(.chainUntrusted) {
            _ = try await verifier.verify(Array(try TestVectors.data("receipts/receipt-production.b64")))
        }
    }

    @Test func bundleAndEnvironmentPolicyApplies() async throws {
        let bytes = Array(try TestVectors.data("receipts/receipt-production.b64"))
        let wrongBundle = ReceiptVerifier(policy: VerificationPolicy(bundleId: "com.example.other"))
        let wrongEnvironment = ReceiptVerifier(policy: VerificationPolicy(environments: [.sandbox]))
        let matching = ReceiptVerifier(
            policy: VerificationPolicy(bundleId: "org.getpure.pure-iphone", environments: [.production])
        )
        await expectRejection(.bundleIdMismatch) { _ = try await wrongBundle.verify(bytes) }
        await expectRejection(.environmentMismatch) { _ = try await wrongEnvironment.verify(bytes) }
        _ = try await matching.verify(bytes)
    }

    @Test func verifyingTwiceUsesTheChainCache() async throws {
        let verifier = ReceiptVerifier()
        let bytes = Array(try TestVectors.data("receipts/receipt-production.b64"))
        _ = try await verifier.verify(bytes)
        _ = try await verifier.verify(bytes)
        #expect(verifier.cachedChainCount == 1)
    }
}
