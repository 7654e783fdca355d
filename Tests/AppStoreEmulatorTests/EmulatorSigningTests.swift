import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import TestProcesses
import Testing

/// What the emulator signs verifies against its roots, and only against them.
struct EmulatorSigningTests {
    @Test func signedTransactionsVerifyWithTheEmulatorsRootOnly() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let token = UUID().uuidString.lowercased()
        let result = try await fixture.emulator.purchase(
            deviceId: "phone-1",
            PurchaseRequest(productId: "coins100", appAccountToken: token)
        )
        #expect(result.outcome == "purchased")
        let jws = try #require(result.signedTransaction)
        let verifier = JWSVerifier(
            roots: fixture.emulator.trustRoots,
            policy: VerificationPolicy(bundleId: "com.example.game", environments: [.sandbox])
        )
        let transaction = try await verifier.verifyTransaction(jws)
        #expect(transaction.transactionId == result.transactionId)
        #expect(transaction.productId == "coins100")
        #expect(transaction.appAccountToken == token)
        #expect(transaction.type == .consumable)
        #expect(transaction.price == 990)
        await #expect(throws: VerificationError.self) { _ = try await JWSVerifier().verifyTransaction(jws) }
    }

    @Test func receiptsVerifyWithTheEmulatorsRootAndWithOpenSSL() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let result = try await fixture.emulator.purchase(deviceId: "phone-1", PurchaseRequest(productId: "levelpack1"))
        let receiptText = try #require(result.appReceipt)
        let verified = try await ReceiptVerifier(roots: fixture.emulator.trustRoots).verify(base64Encoded: receiptText)
        #expect(verified.receipt.bundleId == "com.example.game")
        #expect(verified.receipt.environment == .sandbox)
        #expect(verified.receipt.inAppPurchases.map(\.transactionId) == [result.transactionId])
        await #expect(throws: VerificationError.self) {
            _ = try await ReceiptVerifier().verify(base64Encoded: receiptText)
        }

        let folder = fixture.directory.appendingPathComponent("openssl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let receipt = folder.appendingPathComponent("receipt.der")
        let root = folder.appendingPathComponent("root.pem")
        try Data(base64Encoded: receiptText)!.write(to: receipt)
        try fixture.emulator.identity.receiptChain.rootCertificatePEM.write(to: root, atomically: true, encoding: .utf8)
        let openssl = try ChildProcess.spawn(
            "/usr/bin/env",
            [
                "openssl", "cms", "-verify", "-inform", "DER", "-in", receipt.path, "-CAfile", root.path,
                "-purpose", "any", "-binary", "-out", "/dev/null",
            ])
        #expect(await openssl.wait() == .exited(0), "openssl cms -verify rejected the emulator's receipt")
    }

    @Test func notificationsAndTheirNestedTransactionsVerify() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let purchase = try await fixture.emulator.purchase(deviceId: "phone-1", PurchaseRequest(productId: "potion"))
        let transactionId = try #require(purchase.transactionId)
        try await fixture.emulator.refund(transactionId: transactionId)
        let verifier = JWSVerifier(
            roots: fixture.emulator.trustRoots, policy: VerificationPolicy(appAppleId: 1_234_567_890))
        let notifications = await fixture.emulator.notifications()
        #expect(notifications.map(\.notificationType) == [.oneTimeCharge, .refund])
        let refund = try await verifier.verifyNotification(notifications[1].signedPayload)
        #expect(refund.notification.notificationType == .refund)
        #expect(refund.transaction?.transactionId == transactionId)
        #expect(refund.transaction?.revocationDate != nil)
        #expect(refund.transaction?.revocationReason != nil)
        await #expect(throws: VerificationError.self) {
            _ = try await JWSVerifier().verifyNotification(notifications[0].signedPayload)
        }
    }
}
