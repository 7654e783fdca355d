import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Renewal information and subscription statuses: in subscription notifications and in Get
/// All Subscription Statuses over HTTP.
struct SubscriptionStatusTests {
    @Test func subscriptionNotificationsCarryRenewalInfoAndStatus() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        let token = UUID().uuidString.lowercased()
        let vip = try await emulator.purchase(
            deviceId: "ann", PurchaseRequest(productId: "vip.monthly", appAccountToken: token))
        _ = try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "coins100"))
        let id = try #require(vip.transactionId)
        try await emulator.refund(transactionId: id)
        let bought = try #require(await emulator.ledger().first)
        let verifier = JWSVerifier(roots: emulator.trustRoots)

        let notifications = await emulator.notifications()
        #expect(notifications.map(\.notificationType) == [.subscribed, .oneTimeCharge, .refund])
        let subscribed = try await verifier.verifyNotification(notifications[0].signedPayload)
        #expect(subscribed.notification.subtype == .initialBuy)
        #expect(subscribed.notification.data?.status == .active)
        let renewal = try #require(subscribed.renewalInfo)
        #expect(renewal.originalTransactionId == id)
        #expect(renewal.productId == "vip.monthly")
        #expect(renewal.autoRenewProductId == "vip.monthly")
        #expect(renewal.autoRenewStatus == .on)
        #expect(renewal.renewalDate == bought.expiresDate)
        #expect(renewal.recentSubscriptionStartDate == bought.purchaseDate)
        #expect(renewal.renewalPrice == 4_990)
        #expect(renewal.currency == "USD")
        #expect(renewal.environment == .sandbox)
        #expect(renewal.appAccountToken == token)
        #expect(renewal.appTransactionId == vip.appTransactionId)
        #expect(renewal.signedDate != nil)

        let oneTime = try await verifier.verifyNotification(notifications[1].signedPayload)
        #expect(oneTime.renewalInfo == nil, "no renewal info for a consumable")
        #expect(oneTime.notification.data?.status == nil)

        let refund = try await verifier.verifyNotification(notifications[2].signedPayload)
        #expect(refund.notification.data?.status == .revoked)
        #expect(refund.renewalInfo?.autoRenewStatus == .off, "a refunded subscription does not renew")
        #expect(refund.transaction?.revocationType == .refundFull)
    }

    @Test func statusesListEachSubscriptionOfTheCustomerAndFilterByStatus() async throws {
        let fixture = try await EmulatorFixture(catalog: EmulatorFixture.twoGroupCatalog)
        defer { fixture.remove() }
        let emulator = fixture.emulator
        let kept = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly")).transactionId)
        let refunded = try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "club.monthly"))
        let refundedId = try #require(refunded.transactionId)
        let appTransactionId = try #require(refunded.appTransactionId)
        let coins = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "coins100")).transactionId)
        _ = try await emulator.purchase(deviceId: "bob", PurchaseRequest(productId: "vip.monthly"))
        try await emulator.refund(transactionId: refundedId, percentage: 40_000)
        let verifier = JWSVerifier(roots: emulator.trustRoots)
        let token = try emulator.identity.apiKey.makeToken()

        try await fixture.live { _, client in
            func statuses(_ id: String, _ query: String = "") async throws -> TestResponse {
                try await client.execute(
                    uri: "/sandbox/inApps/v1/subscriptions/\(id)\(query)", method: .get,
                    headers: [.authorization: "Bearer \(token)"])
            }
            func items(_ id: String, _ query: String = "") async throws -> [LastTransactionsItem] {
                let response = try await statuses(id, query)
                #expect(response.status == .ok, "\(id)\(query)")
                let answer = try JSON.decode(StatusResponse.self, response.body)
                #expect(answer.environment == .sandbox)
                #expect(answer.bundleId == "com.example.game")
                #expect(answer.appAppleId == 1_234_567_890)
                #expect(
                    answer.data?.allSatisfy { ["20000001", "20000002"].contains($0.subscriptionGroupIdentifier) }
                        == true)
                return answer.data?.flatMap { $0.lastTransactions ?? [] } ?? []
            }

            for anchor in [coins, kept, appTransactionId] {
                let all = try await items(anchor)
                #expect(all.map(\.originalTransactionId) == [kept, refundedId], "the customer's, in order")
                #expect(all.map(\.status) == [.active, .revoked])
                for item in all {
                    let transaction = try await verifier.verifyTransaction(try #require(item.signedTransactionInfo))
                    let renewal = try await verifier.verifyRenewalInfo(try #require(item.signedRenewalInfo))
                    #expect(transaction.originalTransactionId == item.originalTransactionId)
                    #expect(renewal.originalTransactionId == item.originalTransactionId)
                    #expect(renewal.autoRenewStatus == (item.status == .active ? .on : .off))
                }
            }
            #expect(try await items(coins, "?status=5").map(\.originalTransactionId) == [refundedId])
            #expect(try await items(coins, "?status=1").map(\.originalTransactionId) == [kept])
            #expect(try await items(coins, "?status=1&status=5").count == 2)
            #expect(try await items(coins, "?status=2&status=3&status=4").isEmpty)
            let none = try JSON.decode(StatusResponse.self, try await statuses(coins, "?status=2").body)
            #expect(none.data == [], "no group is left with nothing in it")

            let refused: [(String, String, HTTPResponse.Status, APIErrorCode)] = [
                (coins, "?status=6", .badRequest, .invalidStatus),
                (coins, "?status=0", .badRequest, .invalidStatus),
                (coins, "?status=1&status=active", .badRequest, .invalidStatus),
                ("2999999999999999", "", .notFound, .transactionIdNotFound),
                ("x1", "", .badRequest, .invalidTransactionId),
            ]
            for (id, query, status, code) in refused {
                let response = try await statuses(id, query)
                #expect(response.status == status, "\(id)\(query)")
                #expect(try JSON.decode(APIErrorResponse.self, response.body).errorCode == code, "\(id)\(query)")
            }
            let production = try await client.execute(
                uri: "/production/inApps/v1/subscriptions/\(kept)", method: .get,
                headers: [.authorization: "Bearer \(token)"])
            #expect(production.status == .notFound, "the production API does not see sandbox customers")
        }
    }
}
