import AppStoreModel
import AppStoreSigning
import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// Bad input gets a stable code, the right status, and changes nothing.
@Suite("Rejections")
struct RejectionTests {
    @Test("a tampered signed transaction is rejected as signature_invalid")
    func tamperedJWS() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let jws = try #require(try await fixture.pay(token: order.appAccountToken).signedTransaction)
        var parts = jws.split(separator: ".").map(String.init)
        var payload = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: base64URLDecode(parts[1]))
        payload.quantity = 10
        parts[1] = base64URLEncode(try JSONEncoder().encode(payload))

        let answer = try await fixture.report("alice", signedTransaction: parts.joined(separator: "."))
        #expect(answer.status == 422)
        #expect(answer.code == "signature_invalid")
        #expect(try await fixture.wallet("alice").isEmpty)
        let events = try await fixture.store.timeline(playerId: "alice")
        #expect(events.contains { $0.type == .purchaseRejected && $0.detail["reason"] == "signature_invalid" })
    }

    @Test("a tampered receipt is rejected as signature_invalid")
    func tamperedReceipt() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.pay(token: nil)
        let receipt = try #require(paid.appReceipt)
        var bytes = Array(try #require(Data(base64Encoded: receipt)))
        let bundle = Array("com.example.game".utf8)
        let offset = try #require(
            (0...(bytes.count - bundle.count)).first { Array(bytes[$0..<($0 + bundle.count)]) == bundle })
        bytes[offset + bundle.count - 1] = UInt8(ascii: "x")

        let answer = try await fixture.send(
            .post, "/v1/purchases", credential: fixture.token("alice"),
            json: ["receipt": Data(bytes).base64EncodedString(), "transactionId": try #require(paid.transactionId)])
        #expect(answer.status == 422)
        #expect(answer.code == "signature_invalid")
        #expect(try await fixture.wallet("alice").isEmpty)
    }

    @Test("malformed base64 and garbage PKCS#7 get their codes")
    func garbage() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let token = fixture.token("alice")
        let notBase64 = try await fixture.send(
            .post, "/v1/purchases", credential: token, json: ["receipt": "%%%not base64%%%", "transactionId": "1"])
        #expect(notBase64.status == 422)
        #expect(notBase64.code == "malformed_encoding")
        let garbage = try await fixture.send(
            .post, "/v1/purchases", credential: token,
            json: ["receipt": Data((0..<512).map { UInt8($0 % 251) }).base64EncodedString(), "transactionId": "1"])
        #expect(garbage.status == 422)
        #expect(garbage.code == "malformed_container")
        let notJWS = try await fixture.report("alice", signedTransaction: "a.b")
        #expect(notJWS.status == 422)
        #expect(notJWS.code == "malformed_container")
    }

    @Test("another app's signed transaction is rejected as bundle_id_mismatch")
    func otherApp() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let jws = try #require(try await fixture.pay(token: nil).signedTransaction)
        var payload = try JSONDecoder().decode(
            JWSTransactionDecodedPayload.self, from: base64URLDecode(String(jws.split(separator: ".")[1])))
        payload.bundleId = "com.other.game"
        let forged = try JWSSigner(chain: fixture.emulator.identity.jwsChain).sign(payload)

        let answer = try await fixture.report("alice", signedTransaction: forged)
        #expect(answer.status == 422)
        #expect(answer.code == "bundle_id_mismatch")
    }

    @Test("data signed under another root is rejected as chain_untrusted")
    func untrustedRoot() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let jws = try #require(try await fixture.pay(token: nil).signedTransaction)
        let payload = try JSONDecoder().decode(
            JWSTransactionDecodedPayload.self, from: base64URLDecode(String(jws.split(separator: ".")[1])))
        let forger = try SigningChain.generate(.es256)
        let answer = try await fixture.report("alice", signedTransaction: try JWSSigner(chain: forger).sign(payload))
        #expect(answer.status == 422)
        #expect(answer.code == "chain_untrusted")
    }

    @Test("a sandbox purchase in a production deployment is refused, or delivered flagged when allowed")
    func sandboxInProduction() async throws {
        let strict = try await ServerFixture(.sqlite, notifications: false) {
            $0.deploymentEnvironment = .production
            $0.allowedEnvironments = [.production]
        }
        defer { Task { await strict.shutdown() } }
        let jws = try #require(try await strict.pay(token: nil).signedTransaction)
        let refused = try await strict.report("alice", signedTransaction: jws)
        #expect(refused.status == 422)
        #expect(refused.code == "environment_mismatch")

        let lenient = try await ServerFixture(.sqlite, notifications: false) {
            $0.deploymentEnvironment = .production
            $0.allowedEnvironments = [.production, .sandbox]
        }
        defer { Task { await lenient.shutdown() } }
        let reviewJWS = try #require(try await lenient.pay(token: nil).signedTransaction)
        let reply = try await lenient.report("reviewer", signedTransaction: reviewJWS).decode(PurchaseReply.self)
        #expect(reply.status == "delivered")
        #expect(reply.flags == ["sandbox_in_production", "unbound"])
    }

    @Test("credentials: none, forged, expired, and a player token on an admin endpoint")
    func credentials() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let body = ["productId": "coins100"]
        let none = try await fixture.send(.post, "/v1/orders", json: body)
        #expect(none.status == 401)
        #expect(none.code == "missing_credentials")
        let forged = PlayerTokenVerifier.issue(playerId: "alice", secret: "not-the-secret-at-all")
        let wrongKey = try await fixture.send(.post, "/v1/orders", credential: forged, json: body)
        #expect(wrongKey.status == 401)
        #expect(wrongKey.code == "invalid_token")
        let expired = try await fixture.send(
            .post, "/v1/orders", credential: fixture.token("alice", lifetime: -120), json: body)
        #expect(expired.status == 401)
        #expect(expired.code == "token_expired")
        let playerOnAdmin = try await fixture.send(
            .get, "/v1/admin/players/alice/timeline", credential: fixture.token("alice"))
        #expect(playerOnAdmin.status == 401)
        #expect(playerOnAdmin.code == "admin_credential_required")
        let admin = try await fixture.send(
            .get, "/v1/admin/players/alice/timeline", credential: ServerFixture.adminKey)
        #expect(admin.status == 200)
    }

    @Test("oversized bodies, malformed JSON, unknown products and bad quantities")
    func badRequests() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false) { $0.maximumBodyBytes = 4_096 }
        defer { Task { await fixture.shutdown() } }
        let token = fixture.token("alice")
        let huge = try await fixture.send(
            .post, "/v1/purchases", credential: token,
            json: ["receipt": String(repeating: "A", count: 10_000), "transactionId": "1"])
        #expect(huge.status == 413)
        #expect(huge.code == "body_too_large")
        let notJSON = try await fixture.send(.post, "/v1/orders", credential: token, body: Data("{nope".utf8))
        #expect(notJSON.status == 400)
        #expect(notJSON.code == "invalid_request")
        let neither = try await fixture.send(.post, "/v1/purchases", credential: token, json: ["orderId": "x"])
        #expect(neither.status == 400)
        #expect(neither.code == "invalid_request")
        let unknown = try await fixture.send(
            .post, "/v1/orders", credential: token, json: ["productId": "diamonds"])
        #expect(unknown.status == 404)
        #expect(unknown.code == "unknown_product")
        let tooMany = try await fixture.send(
            .post, "/v1/orders", credential: token, body: Data(#"{"productId":"coins100","quantity":1000}"#.utf8))
        #expect(tooMany.status == 400)
        #expect(try await fixture.store.orders(playerId: "alice").isEmpty)
    }
}
