import Foundation
import PlayModel
import Testing

@Suite struct DeveloperNotificationTests {
    /// A push as Pub/Sub delivers it, its data a one-time product notification with
    /// `eventTimeMillis` as a string, as Google sends it.
    static let push = """
        {
          "message": {
            "attributes": {"key": "value"},
            "data": "\(Data(#"{"version":"1.0","packageName":"com.example.game","eventTimeMillis":"1764400000123","oneTimeProductNotification":{"version":"1.0","notificationType":1,"purchaseToken":"opaque","sku":"coins100"}}"#.utf8).base64EncodedString())",
            "messageId": "136969346945",
            "publishTime": "2026-11-29T08:00:00.123Z"
          },
          "subscription": "projects/myproject/subscriptions/mysubscription"
        }
        """

    @Test func decodesAPushAndItsNotification() throws {
        let envelope = try JSONDecoder().decode(PubSubPushEnvelope.self, from: Data(Self.push.utf8))
        #expect(envelope.subscription == "projects/myproject/subscriptions/mysubscription")
        #expect(envelope.message.messageId == "136969346945")
        #expect(envelope.message.attributes == ["key": "value"])
        let data = try #require(Data(base64Encoded: envelope.message.data))
        let notification = try JSONDecoder().decode(DeveloperNotification.self, from: data)
        #expect(notification.packageName == "com.example.game")
        #expect(notification.eventTimeMillis == "1764400000123")
        #expect(
            notification.oneTimeProductNotification
                == OneTimeProductNotification(
                    notificationType: OneTimeProductNotificationType.purchased, purchaseToken: "opaque", sku: "coins100"
                ))
        #expect(notification.subscriptionNotification == nil)
    }

    /// `eventTimeMillis` as a JSON number (Google's reference calls it a `long`) decodes to
    /// the same string; one that is not an int64 is refused.
    @Test func eventTimeMillisMayBeANumberButMustBeAnInt64() throws {
        let number =
            #"{"version":"1.0","packageName":"p","eventTimeMillis":1764400000123,"testNotification":{"version":"1.0"}}"#
        let decoded = try JSONDecoder().decode(DeveloperNotification.self, from: Data(number.utf8))
        #expect(decoded.eventTimeMillis == "1764400000123")
        #expect(decoded.testNotification == TestNotification())
        for bad in [#""soon""#, "1.5", "null"] {
            let text = #"{"version":"1.0","packageName":"p","eventTimeMillis":"# + bad + "}"
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(DeveloperNotification.self, from: Data(text.utf8))
            }
        }
    }

    /// Encoding keeps Google's field names; the subscription and voided parts round-trip.
    @Test func encodesGooglesFieldNames() throws {
        let notification = DeveloperNotification(
            packageName: "p", eventTimeMillis: "1",
            subscriptionNotification: SubscriptionNotification(
                notificationType: SubscriptionNotificationType.renewed, purchaseToken: "t", subscriptionId: "vip"),
            voidedPurchaseNotification: VoidedPurchaseNotification(
                purchaseToken: "t", orderId: "GPA.1", productType: VoidedPurchaseProductType.subscription,
                refundType: VoidedPurchaseRefundType.quantityBasedPartialRefund))
        let data = try JSONEncoder().encode(notification)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["eventTimeMillis"] as? String == "1")
        let subscription = try #require(object["subscriptionNotification"] as? [String: Any])
        #expect(subscription["subscriptionId"] as? String == "vip")
        #expect(subscription["notificationType"] as? Int == 2)
        let voided = try #require(object["voidedPurchaseNotification"] as? [String: Any])
        #expect(voided["productType"] as? Int == 1)
        #expect(voided["refundType"] as? Int == 2)
        #expect(try JSONDecoder().decode(DeveloperNotification.self, from: data) == notification)
    }

    /// The push token's claims use `email_verified`, as Google's do.
    @Test func pushTokenClaimsUseGooglesNames() throws {
        let claims = PubSubPushTokenClaims(
            iss: "https://accounts.google.com", aud: "https://example.com", email: "a@b", emailVerified: true,
            sub: "1", azp: "1", iat: 10, exp: 3610)
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(claims)) as? [String: Any])
        #expect(object["email_verified"] as? Bool == true)
        #expect(object["emailVerified"] == nil)
    }
}
