import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Each account's app download transaction: its `appTransactionId` in everything signed for
/// the account, and Get App Transaction Info over HTTP.
struct AppTransactionTests {
    @Test func everythingSignedForAnAccountCarriesItsAppTransactionId() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        let coins = try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "coins100"))
        let vip = try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly"))
        let other = try await emulator.purchase(deviceId: "bob", PurchaseRequest(productId: "coins100"))
        let production = try await emulator.purchase(
            deviceId: "ann", PurchaseRequest(productId: "coins100", environment: .production))

        let ann = try #require(coins.appTransactionId)
        #expect(vip.appTransactionId == ann, "one app transaction per account")
        #expect(other.appTransactionId != ann, "another account, another app transaction")
        #expect(production.appTransactionId != ann, "the same device in production is another account")
        for id in [ann, other.appTransactionId, production.appTransactionId] {
            #expect(id?.count == 18 && id?.allSatisfy(\.isNumber) == true, "\(id ?? "nil") is 18 digits")
        }

        let verifier = JWSVerifier(roots: emulator.trustRoots)
        for result in [coins, vip, other, production] {
            let payload = try await verifier.verifyTransaction(try #require(result.signedTransaction))
            #expect(payload.appTransactionId == result.appTransactionId)
            let orderId = try #require(result.orderId)
            #expect(orderId.count == 10 && orderId.hasPrefix("MK"))
            #expect(orderId.allSatisfy { $0.isNumber || ("A"..."Z").contains($0) }, "\(orderId)")
            #expect(await emulator.ledger().first { $0.transactionId == result.transactionId }?.orderId == orderId)
        }
        let unfinished = try await emulator.unfinishedTransactions(deviceId: "ann")
        #expect(unfinished.map(\.appTransactionId) == [ann, ann, production.appTransactionId])
        #expect(unfinished.map(\.orderId) == [coins.orderId, vip.orderId, production.orderId])

        for notification in await emulator.notifications() {
            let verified = try await verifier.verifyNotification(notification.signedPayload)
            let transaction = try #require(verified.transaction)
            #expect(transaction.appTransactionId != nil)
            if let renewalInfo = verified.renewalInfo {
                #expect(renewalInfo.appTransactionId == transaction.appTransactionId)
            }
        }
    }

    @Test func appTransactionInfoAnswersForAnyIdOfTheCustomer() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let first = try await fixture.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "levelpack1"))
        let second = try await fixture.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly"))
        let appTransactionId = try #require(first.appTransactionId)
        let firstPurchase = try #require(await fixture.emulator.ledger().first?.purchaseDate)
        let verifier = JWSVerifier(
            roots: fixture.emulator.trustRoots,
            policy: VerificationPolicy(bundleId: "com.example.game", environments: [.sandbox]))
        let token = try fixture.emulator.identity.apiKey.makeToken()

        try await fixture.live { _, client in
            func get(_ id: String, _ prefix: String = "sandbox") async throws -> TestResponse {
                try await client.execute(
                    uri: "/\(prefix)/inApps/v1/transactions/appTransactions/\(id)", method: .get,
                    headers: [.authorization: "Bearer \(token)"])
            }
            for id in [first.transactionId, second.transactionId, appTransactionId].compactMap(\.self) {
                let response = try await get(id)
                #expect(response.status == .ok, "\(id)")
                let answer = try JSON.decode(AppTransactionInfoResponse.self, response.body)
                let app = try await verifier.verifyAppTransaction(try #require(answer.signedAppTransactionInfo))
                #expect(app.appTransactionId == appTransactionId)
                #expect(app.receiptType == .sandbox)
                #expect(app.bundleId == "com.example.game")
                #expect(app.appAppleId == 1_234_567_890)
                #expect(app.originalPlatform == .iOS)
                #expect(app.originalPurchaseDate == firstPurchase, "the account's first purchase")
                #expect(app.originalApplicationVersion == "1.0")
                #expect(app.applicationVersion == "1")
                #expect(app.receiptCreationDate != nil && app.signedDate == app.receiptCreationDate)
            }

            let cases: [(String, String, HTTPResponse.Status, APIErrorCode)] = [
                ("2999999999999999", "sandbox", .notFound, .transactionIdNotFound),
                ("700000000000000099", "sandbox", .notFound, .transactionIdNotFound),
                (appTransactionId, "production", .notFound, .transactionIdNotFound),
                (try #require(first.transactionId), "production", .notFound, .transactionIdNotFound),
                ("abc", "sandbox", .badRequest, .invalidTransactionId),
            ]
            for (id, prefix, status, code) in cases {
                let response = try await get(id, prefix)
                #expect(response.status == status, "\(prefix) \(id)")
                #expect(try JSON.decode(APIErrorResponse.self, response.body).errorCode == code, "\(prefix) \(id)")
            }
            let unauthenticated = try await client.execute(
                uri: "/sandbox/inApps/v1/transactions/appTransactions/\(appTransactionId)", method: .get)
            #expect(unauthenticated.status == .unauthorized)
        }
    }
}
