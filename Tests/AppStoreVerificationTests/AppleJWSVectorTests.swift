import AppStoreModel
import AppStoreVerification
import Foundation
import Testing

/// Real JWS signed by Apple's G3 chain, and by the test CA of Apple's server library.
struct AppleJWSVectorTests {
    @Test(arguments: 1...3)
    func qysmatTransactionsVerifyWithAppleRoots(number: Int) async throws {
        let transaction = try await JWSVerifier().verifyTransaction(
            try TestVectors.text("jws/QysmatApp-transaction-\(number).jws")
        )
        #expect(transaction.bundleId == "com.app.qysmat")
        #expect(transaction.environment == .sandbox)
        #expect(transaction.type == .autoRenewable)
        #expect(transaction.transactionId?.isEmpty == false)
    }

    @Test(arguments: [
        "jws/QysmatApp-renewal-1.jws", "jws/QysmatApp-renewal-2.jws", "jws/QysmatApp-renewal-3.jws",
        "jws/go-iap-renewal-1.jws",
    ])
    func renewalInfoVerifiesWithAppleRoots(path: String) async throws {
        let renewal = try await JWSVerifier().verifyRenewalInfo(try TestVectors.text(path))
        #expect(renewal.environment == .sandbox)
        #expect(renewal.originalTransactionId?.isEmpty == false)
    }

    @Test func goIAPRenewalDecodesItsValues() async throws {
        let renewal = try await JWSVerifier().verifyRenewalInfo(try TestVectors.text("jws/go-iap-renewal-1.jws"))
        #expect(renewal.originalTransactionId == "2000000335310644")
        #expect(renewal.autoRenewProductId == "co.ringalarm.swtich.quarterly2")
        #expect(renewal.signedDate == 1_684_822_778_492)
    }

    @Test func appleJWSFailsWithAnotherRoot() async throws {
        let verifier = JWSVerifier(roots: try TestVectors.appleLibraryTestRoot)
        await expectRejection(.chainUntrusted) {
            _ = try await verifier.verifyTransaction(try TestVectors.text("jws/QysmatApp-transaction-1.jws"))
        }
    }

    @Test func aStreamFromOneSignerCachesOneChain() async throws {
        let verifier = JWSVerifier()
        for number in 1...3 {
            _ = try await verifier.verifyTransaction(try TestVectors.text("jws/QysmatApp-transaction-\(number).jws"))
            _ = try await verifier.verifyRenewalInfo(try TestVectors.text("jws/QysmatApp-renewal-\(number).jws"))
        }
        #expect(verifier.cachedChainCount == 1)
    }

    @Test func appleLibraryMockTransactionVerifiesWithItsTestCA() async throws {
        let verifier = JWSVerifier(roots: try TestVectors.appleLibraryTestRoot)
        let transaction = try await verifier.verifyTransaction(
            try TestVectors.text("apple-library-mock/transactionInfo"))
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.environment == .sandbox)
        let renewal = try await verifier.verifyRenewalInfo(try TestVectors.text("apple-library-mock/renewalInfo"))
        #expect(renewal.environment == .sandbox)
    }

    @Test func appleLibraryMockNotificationVerifies() async throws {
        let verifier = JWSVerifier(
            roots: try TestVectors.appleLibraryTestRoot,
            policy: VerificationPolicy(bundleId: "com.example", appAppleId: 1234)
        )
        let verified = try await verifier.verifyNotification(
            try TestVectors.text("apple-library-mock/testNotification"))
        #expect(verified.notification.notificationType == .test)
        #expect(verified.notification.data?.appAppleId == 1234)
        #expect(verified.transaction == nil)
    }

    @Test func wrongBundleIdFailsTheBundleCheckOnlyWhenExpected() async throws {
        let jws = try TestVectors.text("apple-library-mock/wrongBundleId")
        let lenient = JWSVerifier(roots: try TestVectors.appleLibraryTestRoot)
        let verified = try await lenient.verifyNotification(jws)
        #expect(verified.notification.data?.bundleId == "com.example.wrong")
        let strict = JWSVerifier(
            roots: try TestVectors.appleLibraryTestRoot, policy: VerificationPolicy(bundleId: "com.example"))
        await expectRejection(.bundleIdMismatch) { _ = try await strict.verifyNotification(jws) }
    }

    @Test func missingX5CHeaderClaimFails() async throws {
        let verifier = JWSVerifier(roots: try TestVectors.appleLibraryTestRoot)
        await expectRejection(.missingCertificates) {
            _ = try await verifier.verifyNotification(try TestVectors.text("apple-library-mock/missingX5CHeaderClaim"))
        }
    }
}
