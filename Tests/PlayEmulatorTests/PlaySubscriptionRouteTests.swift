import Foundation
import PlayEmulator
import PlayModel
import Testing

/// The subscription methods over HTTP, as a server calls them.
@Suite struct PlaySubscriptionRouteTests {
    static let base = "/androidpublisher/v3/applications/com.example.game/purchases"

    @Test func getAcknowledgeCancelAndRevokeOverHTTP() async throws {
        try await PlayFixture().live { play in
            let (bought, purchase) = try await play.call(
                .post, "/emulator/v1/play/devices/phone-9/purchases",
                json: PlayDevicePurchaseRequest(productId: "vip.monthly", obfuscatedAccountId: "order-9"))
            #expect(bought == .ok, "\(purchase)")
            let token = try #require(purchase["purchaseToken"] as? String)
            let access = try await play.accessToken()

            let (unauthenticated, _) = try await play.call(.get, "\(Self.base)/subscriptionsv2/tokens/\(token)")
            #expect(unauthenticated == .unauthorized)
            let (read, subscription) = try await play.call(
                .get, "\(Self.base)/subscriptionsv2/tokens/\(token)", bearer: access)
            #expect(read == .ok)
            #expect(subscription["kind"] as? String == "androidpublisher#subscriptionPurchaseV2")
            #expect(subscription["acknowledgementState"] as? String == "ACKNOWLEDGEMENT_STATE_PENDING")
            let items = try #require(subscription["lineItems"] as? [[String: Any]])
            #expect((items.first?["autoRenewingPlan"] as? [String: Any])?["autoRenewEnabled"] as? Bool == true)

            let (acknowledged, _) = try await play.call(
                .post, "\(Self.base)/subscriptions/vip.monthly/tokens/\(token):acknowledge",
                json: ProductPurchasesAcknowledgeRequest(developerPayload: "ok"), bearer: access)
            #expect(acknowledged == .noContent)
            let (unknown, _) = try await play.call(
                .post, "\(Self.base)/subscriptions/vip.monthly/tokens/\(token):pause", bearer: access)
            #expect(unknown == .notFound)
            let (canceled, _) = try await play.call(
                .post, "\(Self.base)/subscriptionsv2/tokens/\(token):cancel",
                json: ["cancellationContext": ["cancellationType": "USER_REQUESTED_STOP_RENEWALS"]], bearer: access)
            #expect(canceled == .ok)
            let (_, after) = try await play.call(.get, "\(Self.base)/subscriptionsv2/tokens/\(token)", bearer: access)
            #expect(after["subscriptionState"] as? String == "SUBSCRIPTION_STATE_CANCELED")

            let (noContext, error) = try await play.call(
                .post, "\(Self.base)/subscriptionsv2/tokens/\(token):revoke", json: [String: String](), bearer: access)
            #expect(noContext == .badRequest)
            #expect(((error["error"] as? [String: Any])?["code"] as? Int) == 400)
            let (revoked, _) = try await play.call(
                .post, "\(Self.base)/subscriptionsv2/tokens/\(token):revoke",
                json: RevokeSubscriptionPurchaseRequest(revocationContext: RevocationContext(fullRefund: [:])),
                bearer: access)
            #expect(revoked == .ok)
            let (_, gone) = try await play.call(.get, "\(Self.base)/subscriptionsv2/tokens/\(token)", bearer: access)
            #expect(gone["subscriptionState"] as? String == "SUBSCRIPTION_STATE_EXPIRED")
        }
    }

    /// An upgrade over HTTP: the device's body carries Google's `oldPurchaseToken` and
    /// `subscriptionReplacementMode`; Google's API shows the link and the ended old token.
    @Test func anUpgradeOverHTTP() async throws {
        try await PlayFixture().live { play in
            let devices = "/emulator/v1/play/devices/phone-7/purchases"
            let (_, old) = try await play.call(
                .post, devices, json: PlayDevicePurchaseRequest(productId: "vip.monthly"))
            let oldToken = try #require(old["purchaseToken"] as? String)
            let (unknown, refused) = try await play.call(
                .post, devices, json: ["productId": "vip.premium", "oldPurchaseToken": "nobody-s-token"])
            #expect(unknown == .notFound)
            #expect(refused["error"] as? String == "unknown_purchase")
            let (deferred, notModelled) = try await play.call(
                .post, devices,
                json: PlayDevicePurchaseRequest(
                    productId: "vip.premium", oldPurchaseToken: oldToken, subscriptionReplacementMode: 6))
            #expect(deferred == .badRequest)
            #expect(notModelled["error"] as? String == "invalid_request")

            let (upgraded, new) = try await play.call(
                .post, devices,
                json: PlayDevicePurchaseRequest(
                    productId: "vip.premium", oldPurchaseToken: oldToken, subscriptionReplacementMode: 1))
            #expect(upgraded == .ok, "\(new)")
            let newToken = try #require(new["purchaseToken"] as? String)
            let access = try await play.accessToken()
            let (_, linked) = try await play.call(
                .get, "\(Self.base)/subscriptionsv2/tokens/\(newToken)", bearer: access)
            #expect(linked["linkedPurchaseToken"] as? String == oldToken)
            #expect(linked["subscriptionState"] as? String == "SUBSCRIPTION_STATE_ACTIVE")
            let (_, ended) = try await play.call(
                .get, "\(Self.base)/subscriptionsv2/tokens/\(oldToken)", bearer: access)
            #expect(ended["subscriptionState"] as? String == "SUBSCRIPTION_STATE_EXPIRED")
            #expect(ended["linkedPurchaseToken"] == nil)
        }
    }
}
