import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The device and control API over HTTP, as docs/emulator.md describes it.
struct DeviceAPITests {
    @Test func purchaseUnfinishedFinishAndReceipt() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            let token = UUID().uuidString.lowercased()
            let bought = try await client.execute(
                uri: "/emulator/v1/devices/alice-phone/purchases",
                method: .post,
                body: JSON.body(PurchaseRequest(productId: "coins100", appAccountToken: token))
            )
            #expect(bought.status == .ok)
            let result = try JSON.decode(PurchaseResult.self, bought.body)
            #expect(result.outcome == "purchased")
            let id = try #require(result.transactionId)

            let unfinished = try await client.execute(
                uri: "/emulator/v1/devices/alice-phone/transactions/unfinished", method: .get)
            let list = try JSON.decode([DeviceTransaction].self, unfinished.body)
            #expect(list.map(\.transactionId) == [id])
            #expect(list.first?.appAccountToken == token)

            let finish = try await client.execute(
                uri: "/emulator/v1/devices/alice-phone/transactions/\(id)/finish", method: .post)
            #expect(finish.status == .ok)
            let after = try await client.execute(
                uri: "/emulator/v1/devices/alice-phone/transactions/unfinished", method: .get)
            #expect(try JSON.decode([DeviceTransaction].self, after.body).isEmpty)

            let receipt = try await client.execute(uri: "/emulator/v1/devices/alice-phone/receipt", method: .get)
            let appReceipt = try #require(try JSON.object(receipt.body)["appReceipt"] as? String)
            let verified = try await ReceiptVerifier(roots: fixture.emulator.trustRoots).verify(
                base64Encoded: appReceipt)
            #expect(verified.receipt.inAppPurchases.isEmpty, "a finished consumable leaves the receipt")

            let ledger = try await client.execute(uri: "/emulator/v1/ledger", method: .get)
            let charges = try JSON.decode([EmulatedTransaction].self, ledger.body)
            #expect(charges.map(\.transactionId) == [id])
            #expect(charges.first?.finished == true)
        }
    }

    @Test("a purchase answers with the app receipt unless the request sends includeAppReceipt false")
    func appReceiptOnRequest() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            var answers: [Bool?: [String: Any]] = [:]
            for include in [nil, true, false] as [Bool?] {
                let bought = try await client.execute(
                    uri: "/emulator/v1/devices/alice-phone/purchases", method: .post,
                    body: JSON.body(PurchaseRequest(productId: "coins100", includeAppReceipt: include)))
                #expect(bought.status == .ok)
                answers[include] = try JSON.object(bought.body)
            }
            for include in [nil, true] as [Bool?] {
                let appReceipt = try #require(
                    answers[include]?["appReceipt"] as? String, "\(String(describing: include))")
                let verified = try await ReceiptVerifier(roots: fixture.emulator.trustRoots).verify(
                    base64Encoded: appReceipt)
                #expect(!verified.receipt.inAppPurchases.isEmpty)
            }
            #expect(answers[false]?.keys.contains("appReceipt") == false, "no receipt signed when not asked for")
            #expect(answers[false]?["signedTransaction"] is String)
        }
    }

    @Test func askToBuyWaitsForApprovalOrDecline() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            let settings = try await client.execute(
                uri: "/emulator/v1/devices/kid/",
                method: .put,
                body: JSON.body(DeviceSettings(askToBuy: true))
            )
            #expect(settings.status == .ok)
            for verdict in ["approve", "decline"] {
                let pending = try await client.execute(
                    uri: "/emulator/v1/devices/kid/purchases",
                    method: .post,
                    body: JSON.body(PurchaseRequest(productId: "potion"))
                )
                #expect(pending.status == .accepted)
                let result = try JSON.decode(PurchaseResult.self, pending.body)
                #expect(result.outcome == "pending")
                #expect(result.transactionId == nil)
                let pendingId = try #require(result.pendingId)
                let decided = try await client.execute(
                    uri: "/emulator/v1/devices/kid/purchases/\(pendingId)/\(verdict)", method: .post)
                #expect(decided.status == .ok)
            }
            let charges = try JSON.decode(
                [EmulatedTransaction].self, try await client.execute(uri: "/emulator/v1/ledger", method: .get).body)
            #expect(charges.count == 1, "only the approved purchase is charged")
        }
    }

    @Test func refundsAndConsumptionRequestsSendNotifications() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let id = try #require(
            try await fixture.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins100")).transactionId)
        try await fixture.live { _, client in
            for action in ["consumption-request", "refund", "reverse-refund", "decline-refund"] {
                let response = try await client.execute(uri: "/emulator/v1/transactions/\(id)/\(action)", method: .post)
                #expect(response.status == .ok, "\(action)")
            }
            let again = try await client.execute(uri: "/emulator/v1/transactions/\(id)/reverse-refund", method: .post)
            #expect(again.status == .conflict)
            #expect(try JSON.object(again.body)["error"] as? String == "not_refunded")
        }
        let types = await fixture.emulator.notifications().map(\.notificationType)
        #expect(types == [.oneTimeCharge, .consumptionRequest, .refund, .refundReversed, .refundDeclined])
    }

    @Test func badRequestsGetStableErrors() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            let cases: [(String, HTTPRequest.Method, ByteBuffer?, HTTPResponse.Status, String)] = [
                (
                    "/emulator/v1/devices/p/purchases", .post, JSON.body(PurchaseRequest(productId: "nope")), .notFound,
                    "unknown_product"
                ),
                ("/emulator/v1/devices/p/purchases", .post, ByteBuffer(string: "{oops"), .badRequest, "malformed_body"),
                (
                    "/emulator/v1/devices/p/purchases", .post,
                    JSON.body(PurchaseRequest(productId: "potion", quantity: 0)), .badRequest, "invalid_quantity"
                ),
                (
                    "/emulator/v1/devices/p/purchases", .post,
                    JSON.body(PurchaseRequest(productId: "potion", appAccountToken: "x")), .badRequest,
                    "invalid_app_account_token"
                ),
                ("/emulator/v1/devices/p/transactions/42/finish", .post, nil, .notFound, "unknown_transaction"),
                ("/emulator/v1/transactions/42/refund", .post, nil, .notFound, "unknown_transaction"),
                (
                    "/emulator/v1/devices/p/purchases", .post, ByteBuffer(repeating: 0x20, count: 2 << 20),
                    .contentTooLarge, "body_too_large"
                ),
            ]
            for (uri, method, body, status, code) in cases {
                let response = try await client.execute(uri: uri, method: method, body: body)
                #expect(response.status == status, "\(uri) \(code)")
                #expect(try JSON.object(response.body)["error"] as? String == code)
            }
            let roots = try JSON.object(try await client.execute(uri: "/emulator/v1/roots", method: .get).body)
            #expect(
                Data(base64Encoded: roots["jws"] as? String ?? "")
                    == Data(fixture.emulator.identity.jwsChain.rootCertificateDER))
            #expect(
                Data(base64Encoded: roots["receipt"] as? String ?? "")
                    == Data(fixture.emulator.identity.receiptChain.rootCertificateDER))
            let products = try JSON.decode(
                [EmulatorProduct].self, try await client.execute(uri: "/emulator/v1/products", method: .get).body)
            #expect(products == EmulatorCatalog.sample.products)
        }
    }
}
