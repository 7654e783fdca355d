import AppStoreEmulator
import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// The online revocation check (OCSP against the emulator's responder) end to end: an
/// unavailable responder makes signed data "retry later", a revoked signing certificate
/// makes it refused.
@Suite("Revocation check, end to end")
struct RevocationCheckPathTests {
    static func fixture() async throws -> ServerFixture {
        try await ServerFixture(.sqlite, notifications: false) { $0.revocationCheck.enabled = true }
    }

    static let responderFails = EmulatorFaults(endpoints: ["ocsp": EndpointFaults(errorRate: 1)])

    @Test("responder failing: the report is answered 503 verification_unavailable, nothing delivered; then delivered")
    func reportRetriedAfterOutage() async throws {
        let fixture = try await Self.fixture()
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let signedTransaction = try #require(paid.signedTransaction)

        await fixture.emulator.setFaults(Self.responderFails)
        let refused = try await fixture.report("alice", signedTransaction: signedTransaction, orderId: order.orderId)
        #expect(refused.status == 503, "\(refused)")
        #expect(refused.code == "verification_unavailable")
        #expect(refused.headers["retry-after"] == "30")
        #expect(try refused.decode(PurchaseReply.self).status == "pending")
        #expect(try await fixture.wallet("alice").isEmpty)
        #expect(
            try await fixture.store.purchase(store: .appStore, transactionId: try #require(paid.transactionId)) == nil)

        await fixture.emulator.setFaults(EmulatorFaults())
        let delivered = try await fixture.report("alice", signedTransaction: signedTransaction, orderId: order.orderId)
        #expect(delivered.status == 200, "\(delivered)")
        #expect(try delivered.decode(PurchaseReply.self).status == "delivered")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("a revoked signing certificate: the report is refused 422 certificate_revoked")
    func revokedLeaf() async throws {
        let fixture = try await Self.fixture()
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let revoked = try await fixture.send(.post, "/emulator/v1/certificates/revoke-signing-leaf")
        #expect(revoked.status == 200)

        let answer = try await fixture.report("alice", signedTransaction: #require(paid.signedTransaction))
        #expect(answer.status == 422, "\(answer)")
        #expect(answer.code == "certificate_revoked")
        #expect(try answer.decode(PurchaseReply.self).status == "rejected")
        #expect(try await fixture.wallet("alice").isEmpty)
    }

    @Test("responder failing: a notification is answered 503 so Apple retries, and is processed on the retry")
    func notificationRetried() async throws {
        let fixture = try await Self.fixture()
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        let signedPayload = try await fixture.signedNotification(.oneTimeCharge, about: transactionId)

        await fixture.emulator.setFaults(Self.responderFails)
        let refused = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": signedPayload])
        #expect(refused.status == 503, "\(refused)")
        #expect(refused.code == "verification_unavailable")
        #expect(refused.headers["retry-after"] == "30")
        #expect(try await fixture.wallet("alice").isEmpty)

        await fixture.emulator.setFaults(EmulatorFaults())
        let accepted = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": signedPayload])
        #expect(accepted.status == 200, "\(accepted)")
        #expect(try accepted.decode([String: String].self) == ["status": "processed"])
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("revocationCheck is off by default and set from the file or the environment, within bounds")
    func configuration() throws {
        #expect(ServerConfiguration().revocationCheck == RevocationCheckSettings())
        #expect(!RevocationCheckSettings().enabled)
        let file = try JSONDecoder().decode(
            ServerConfiguration.self, from: Data(#"{"revocationCheck": {"enabled": true, "cacheSeconds": 60}}"#.utf8))
        #expect(file.revocationCheck == RevocationCheckSettings(enabled: true, cacheSeconds: 60))
        let environment = try ServerConfiguration().applyingEnvironment([
            "STOREKEEPER_REVOCATION_CHECK": "true", "STOREKEEPER_REVOCATION_CHECK_URL": "http://ocsp.example/ocsp",
        ])
        #expect(environment.revocationCheck.enabled)
        #expect(environment.revocationCheck.url == URL(string: "http://ocsp.example/ocsp"))
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration().applyingEnvironment(["STOREKEEPER_REVOCATION_CHECK": "yes"])
        }
        var invalid = ServerConfiguration()
        invalid.revocationCheck = RevocationCheckSettings(url: URL(string: "ftp://ocsp.example"), timeoutSeconds: 0)
        let problems = invalid.validationProblems()
        #expect(problems.contains("revocationCheck.timeoutSeconds must be more than 0 and at most 60"))
        #expect(problems.contains("revocationCheck.url must be an http or https URL"))
    }
}
