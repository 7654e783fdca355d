import AppStoreEmulator
import Foundation
import PlayEmulator
import PlayModel
import PlaySigning
import Testing

/// Real-time developer notifications: what the Play side pushes, how, and when.
@Suite struct PlayNotificationTests {
    /// Points the pushes at `inbox` through the control API.
    static func configure(
        _ play: PlayClient, audience: String? = nil, email: String? = nil
    ) async throws -> URL {
        let url = PushInbox.url(port: play.port)
        let (status, answer) = try await play.call(
            .put, "/emulator/v1/play/push",
            json: PlayPushConfiguration(url: url, audience: audience, serviceAccountEmail: email))
        #expect(status == .ok, "\(answer)")
        return url
    }

    /// Buys `productId` on device `device`; the purchase token.
    static func buy(
        _ play: PlayClient, _ productId: String = "coins100", device: String = "phone-1", quantity: Int? = nil,
        pending: Bool? = nil
    ) async throws -> (token: String, orderId: String) {
        let (status, purchase) = try await play.call(
            .post, "/emulator/v1/play/devices/\(device)/purchases",
            json: PlayDevicePurchaseRequest(productId: productId, quantity: quantity, pending: pending))
        #expect(status == .ok, "\(purchase)")
        return (try #require(purchase["purchaseToken"] as? String), try #require(purchase["orderId"] as? String))
    }

    /// A purchase is pushed as Pub/Sub pushes: the envelope with the notification as base64
    /// `message.data`, and an OIDC token that verifies against the served JWKS with
    /// Google's issuer, the push URL as audience and the configured service account.
    @Test func aPurchaseIsPushedWithAnOIDCTokenThatVerifies() async throws {
        let fixture = try await PlayFixture()
        let inbox = PushInbox()
        try await fixture.live(inbox: inbox) { play in
            let url = try await Self.configure(play, email: "rtdn@example.iam.gserviceaccount.com")
            let bought = try await Self.buy(play)
            await fixture.emulator.waitForPlayNotificationDeliveries()

            let push = try #require(inbox.pushes.first)
            #expect(inbox.pushes.count == 1)
            #expect(push.envelope.subscription == PlayEmulator.pushSubscription)
            #expect(push.envelope.message.messageId.wholeMatch(of: /[1-9]\d{15}/) != nil)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            #expect(formatter.date(from: push.envelope.message.publishTime) != nil)
            let notification = try push.notification()
            #expect(notification.version == "1.0")
            #expect(notification.packageName == "com.example.game")
            let millis = try #require(Int64(notification.eventTimeMillis))
            #expect(abs(Double(millis) / 1000 - Date().timeIntervalSince1970) < 60)
            #expect(
                notification.oneTimeProductNotification
                    == OneTimeProductNotification(notificationType: 1, purchaseToken: bought.token, sku: "coins100"))
            #expect(notification.voidedPurchaseNotification == nil && notification.testNotification == nil)

            let (status, certs) = try await play.call(.get, "/emulator/v1/play/certs")
            #expect(status == .ok)
            let keys = try JSONDecoder().decode(
                JSONWebKeySet.self, from: JSONSerialization.data(withJSONObject: certs))
            let authorization = try #require(push.authorization)
            #expect(authorization.hasPrefix("Bearer "))
            let claims = try RS256JWT.verify(
                String(authorization.dropFirst("Bearer ".count)), as: PubSubPushTokenClaims.self, keys: keys)
            #expect(claims.iss == "https://accounts.google.com")
            #expect(claims.aud == url.absoluteString)
            #expect(claims.email == "rtdn@example.iam.gserviceaccount.com")
            #expect(claims.emailVerified)
            #expect(claims.exp - claims.iat == 3600)
            #expect(abs(Double(claims.iat) - Date().timeIntervalSince1970) < 60)
            // Another key set (the service account's) does not verify it.
            let (_, account) = try await play.call(.get, "/emulator/v1/play/service-account")
            #expect(account["private_key_id"] as? String != keys.keys.first?.kid)
            #expect(fixture.emulator.play.pendingNotifications.isEmpty)
        }
    }

    /// A configured audience is the token's `aud`; a configuration that is not usable is
    /// refused with a stable code.
    @Test func theAudienceIsConfigurableAndBadConfigurationsAreRefused() async throws {
        let fixture = try await PlayFixture()
        let inbox = PushInbox()
        try await fixture.live(inbox: inbox) { play in
            _ = try await Self.configure(play, audience: "https://game.example/rtdn")
            _ = try await Self.buy(play)
            await fixture.emulator.waitForPlayNotificationDeliveries()
            let authorization = try #require(inbox.pushes.first?.authorization)
            let claims = try RS256JWT.verify(
                String(authorization.dropFirst("Bearer ".count)), as: PubSubPushTokenClaims.self,
                keys: try fixture.emulator.play.pushKeySet())
            #expect(claims.aud == "https://game.example/rtdn")
            #expect(claims.email == PlayEmulator.defaultPushServiceAccountEmail)

            for bad in [
                #"{"url": "ftp://example.com/push"}"#, #"{"url": "relative/push"}"#, #"{"audience": ""}"#,
                #"{"serviceAccountEmail": "nobody"}"#,
            ] {
                let (status, answer) = try await play.call(
                    .put, "/emulator/v1/play/push",
                    json: try JSONSerialization.jsonObject(with: Data(bad.utf8)) as? [String: String])
                #expect(status == .badRequest, "\(bad)")
                #expect(answer["error"] as? String == "invalid_request", "\(bad)")
            }
            let (malformed, answer) = try await play.call(.put, "/emulator/v1/play/push", json: ["url": 5])
            #expect(malformed == .badRequest)
            #expect(answer["error"] as? String == "malformed_body")
            let (_, kept) = try await play.call(.get, "/emulator/v1/play/push")
            #expect(kept["audience"] as? String == "https://game.example/rtdn")
        }
    }

    /// A pending purchase is not told until paid: completing it pushes type 1, canceling
    /// another pushes type 2.
    @Test func pendingPurchasesArePushedWhenCompletedOrCanceled() async throws {
        let fixture = try await PlayFixture()
        let inbox = PushInbox()
        try await fixture.live(inbox: inbox) { play in
            _ = try await Self.configure(play)
            let paid = try await Self.buy(play, pending: true)
            await fixture.emulator.waitForPlayNotificationDeliveries()
            #expect(inbox.pushes.isEmpty)
            let (completed, _) = try await play.call(
                .post, "/emulator/v1/play/devices/phone-1/purchases/\(paid.token):complete")
            #expect(completed == .ok)
            let unpaid = try await Self.buy(play, "potion", pending: true)
            let (canceled, _) = try await play.call(
                .post, "/emulator/v1/play/devices/phone-1/purchases/\(unpaid.token):cancel")
            #expect(canceled == .ok)
            await fixture.emulator.waitForPlayNotificationDeliveries()
            let told = try inbox.notifications().compactMap(\.oneTimeProductNotification)
            #expect(
                Set(told) == [
                    OneTimeProductNotification(notificationType: 1, purchaseToken: paid.token, sku: "coins100"),
                    OneTimeProductNotification(notificationType: 2, purchaseToken: unpaid.token, sku: "potion"),
                ])
            #expect(told.count == 2)
        }
    }

    /// A quantity-based partial refund pushes refund type 2, a full refund by the developer
    /// (`orders.refund`) type 1; both for a one-time product.
    @Test func refundsArePushedAsVoidedPurchases() async throws {
        let fixture = try await PlayFixture()
        let inbox = PushInbox()
        try await fixture.live(inbox: inbox) { play in
            _ = try await Self.configure(play)
            let bought = try await Self.buy(play, quantity: 3)
            let (partial, answer) = try await play.call(
                .post, "/emulator/v1/play/devices/phone-1/purchases/\(bought.token):refund",
                json: PlayDeviceRefundRequest(quantity: 1))
            #expect(partial == .ok, "\(answer)")
            let access = try await play.accessToken()
            let (refunded, _) = try await play.call(
                .post, "/androidpublisher/v3/applications/com.example.game/orders/\(bought.orderId):refund?revoke=true",
                bearer: access)
            #expect(refunded == .noContent)
            await fixture.emulator.waitForPlayNotificationDeliveries()
            let voided = try inbox.notifications().compactMap(\.voidedPurchaseNotification)
            #expect(
                Set(voided) == [
                    VoidedPurchaseNotification(
                        purchaseToken: bought.token, orderId: bought.orderId, productType: 2, refundType: 2),
                    VoidedPurchaseNotification(
                        purchaseToken: bought.token, orderId: bought.orderId, productType: 2, refundType: 1),
                ])
            #expect(voided.count == 2)
        }
    }

    /// A test notification needs a push URL (409 `no_push_url` without); with one it is
    /// pushed with `testNotification`.
    @Test func aTestNotificationIsPushedOnRequest() async throws {
        let fixture = try await PlayFixture()
        let inbox = PushInbox()
        try await fixture.live(inbox: inbox) { play in
            let (refused, error) = try await play.call(.post, "/emulator/v1/play/notifications/test")
            #expect(refused == .conflict)
            #expect(error["error"] as? String == "no_push_url")
            _ = try await Self.configure(play)
            let (requested, _) = try await play.call(.post, "/emulator/v1/play/notifications/test")
            #expect(requested == .ok)
            await fixture.emulator.waitForPlayNotificationDeliveries()
            let notifications = try inbox.notifications()
            #expect(notifications.map(\.testNotification) == [TestNotification(version: "1.0")])
            #expect(notifications.first?.oneTimeProductNotification == nil)
        }
    }

    /// A push answered 500 is sent again, the same message, until answered 2xx; then the
    /// Play side forgets it.
    @Test func aPushAnswered500IsRetried() async throws {
        let fixture = try await PlayFixture()
        let inbox = PushInbox(answering: [500, 503])
        try await fixture.live(inbox: inbox) { play in
            _ = try await Self.configure(play)
            _ = try await Self.buy(play)
            await fixture.emulator.waitForPlayNotificationDeliveries()
            let ids = inbox.pushes.map(\.envelope.message.messageId)
            #expect(ids.count == 3)
            #expect(Set(ids).count == 1)
            #expect(fixture.emulator.play.pendingNotifications.isEmpty)
        }
    }

    /// The notification faults apply to pushes: a duplicated push arrives twice with one
    /// message id; a dropped one never arrives and is forgotten.
    @Test func faultsDuplicateAndDropPushes() async throws {
        let fixture = try await PlayFixture()
        let inbox = PushInbox()
        try await fixture.live(inbox: inbox) { play in
            _ = try await Self.configure(play)
            await fixture.emulator.setFaults(EmulatorFaults(notifications: NotificationFaults(duplicateRate: 1)))
            _ = try await Self.buy(play)
            await fixture.emulator.waitForPlayNotificationDeliveries()
            let ids = inbox.pushes.map(\.envelope.message.messageId)
            #expect(ids.count == 2)
            #expect(Set(ids).count == 1)

            await fixture.emulator.setFaults(EmulatorFaults(notifications: NotificationFaults(dropRate: 1)))
            _ = try await Self.buy(play, "potion")
            await fixture.emulator.waitForPlayNotificationDeliveries()
            #expect(inbox.pushes.count == 2)
            #expect(fixture.emulator.play.pendingNotifications.isEmpty)
        }
    }
}
