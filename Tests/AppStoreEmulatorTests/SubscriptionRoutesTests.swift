import AppStoreEmulator
import AppStoreModel
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The subscription, family sharing and restore routes over HTTP, as docs/emulator.md
/// lists them.
struct SubscriptionRoutesTests {
    /// What the subscription routes answer.
    private struct Answer: Decodable {
        var subscription: EmulatedSubscription
        var status: SubscriptionStatus
        var transaction: DeviceTransaction?
    }

    @Test func everySubscriptionActionHasARoute() async throws {
        let fixture = try await EmulatorFixture(subscriptionTimeScale: 1.0 / 8_640)
        defer { fixture.remove() }
        try await fixture.live { _, client in
            func post(_ path: String, _ body: String? = nil) async throws -> TestResponse {
                try await client.execute(
                    uri: "/emulator/v1/\(path)", method: .post, body: body.map { ByteBuffer(string: $0) })
            }
            func answer(_ path: String, _ body: String? = nil) async throws -> Answer {
                let response = try await post(path, body)
                #expect(response.status == .ok, "\(path): \(String(buffer: response.body))")
                return try JSON.decode(Answer.self, response.body)
            }
            let bought = try JSON.decode(
                PurchaseResult.self,
                try await post("devices/ann/purchases", #"{"productId": "vip.monthly"}"#).body)
            let id = try #require(bought.transactionId)

            let renewed = try await answer("subscriptions/\(id)/renew")
            #expect(renewed.status == .active)
            #expect(renewed.transaction?.transactionId == renewed.subscription.latestTransactionId)
            let failed = try await answer("subscriptions/\(id)/fail-renewal", #"{"gracePeriod": true}"#)
            #expect(failed.status == .billingGracePeriod && failed.subscription.billing == .gracePeriod)
            #expect(try await answer("subscriptions/\(id)/expire-grace").status == .billingRetry)
            let recovered = try await answer("subscriptions/\(id)/recover")
            #expect(recovered.status == .active && recovered.transaction != nil)
            let off = try await answer("devices/ann/subscriptions/\(id)/auto-renew", #"{"enabled": false}"#)
            #expect(off.subscription.autoRenewEnabled == false)
            let upgraded = try await answer("devices/ann/subscriptions/\(id)/change", #"{"productId": "vip.premium"}"#)
            #expect(upgraded.subscription.productId == "vip.premium")
            #expect(upgraded.transaction?.productId == "vip.premium")
            let shared = try await post("subscriptions/\(id)/family-share", #"{"deviceId": "kid"}"#)
            #expect(shared.status == .ok)
            let copy = try JSON.decode(DeviceTransaction.self, shared.body)
            let got = try await client.execute(uri: "/emulator/v1/subscriptions/\(copy.transactionId)", method: .get)
            #expect(try JSON.decode(Answer.self, got.body).subscription.familySharedFrom == id)
            let restored = try await post("devices/kid/restore")
            #expect(
                try JSON.decode([DeviceTransaction].self, restored.body).map(\.transactionId) == [copy.transactionId])
            #expect(try await answer("subscriptions/\(id)/expire").status == .expired)

            let due = try await post("process-due-subscriptions", #"{"now": 0}"#)
            #expect(try JSON.object(due.body)["actions"] as? Int == 0)
            let account = try await client.execute(
                uri: "/emulator/v1/devices/tablet", method: .put, body: ByteBuffer(string: #"{"appleAccount": "ann"}"#))
            #expect(try JSON.decode(EmulatedDevice.self, account.body).appleAccount == "ann")

            let refusals: [(String, String?, HTTPResponse.Status, String)] = [
                ("subscriptions/\(id)/renew", nil, .conflict, "subscription_not_renewable"),
                ("subscriptions/\(id)/expire-grace", nil, .conflict, "not_in_grace_period"),
                ("subscriptions/2999/renew", nil, .notFound, "unknown_subscription"),
                ("process-due-subscriptions", #"{"now": -1}"#, .badRequest, "invalid_now"),
                ("subscriptions/\(id)/family-share", #"{"deviceId": ""}"#, .badRequest, "invalid_device_id"),
                ("subscriptions/\(id)/fail-renewal", #"{"grace": true}"#, .badRequest, "malformed_body"),
                (
                    "devices/bob/subscriptions/\(id)/auto-renew", #"{"enabled": true}"#, .notFound,
                    "subscription_of_other_account"
                ),
                ("devices/ann/purchases", #"{"productId": "vip.monthly"}"#, .ok, ""),
                ("devices/ann/purchases", #"{"productId": "vip.monthly"}"#, .conflict, "already_subscribed"),
            ]
            for (path, body, status, code) in refusals {
                let response = try await post(path, body)
                #expect(response.status == status, "\(path)")
                if !code.isEmpty {
                    #expect(try JSON.object(response.body)["error"] as? String == code, "\(path)")
                }
            }
        }
    }
}
