import AppStoreModel
import Foundation
import Testing

struct NotificationTests {
    /// The payload of the TEST notification from Apple's server library test resources
    /// (see shared/testdata/apple/apple-library-mock/testNotification).
    let appleLibraryTestNotification = """
        {"data":{"appAppleId":1234,"environment":"Sandbox","bundleId":"com.example"},\
        "notificationUUID":"9ad56bd2-0bc6-42e0-af24-fd996d87a1e6","signedDate":1681314324000,\
        "notificationType":"TEST"}
        """

    /// A refund notification with every `data` field, and fields this model does not know.
    let refund = """
        {
          "notificationType": "REFUND",
          "notificationUUID": "002e14d5-51f5-4503-b5a8-c3a1af68eb20",
          "version": "2.0",
          "signedDate": 1708769475000,
          "data": {
            "appAppleId": 6450000001,
            "bundleId": "com.example.game",
            "bundleVersion": "42",
            "environment": "Production",
            "signedTransactionInfo": "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln",
            "signedRenewalInfo": "eyJhbGciOiJFUzI1NiJ9.eyJwcm9kdWN0SWQiOiJwcm8ifQ.c2ln",
            "status": 5,
            "consumptionRequestReason": "UNINTENDED_PURCHASE",
            "appData": {"unknown": true}
          },
          "retryCount": 2
        }
        """

    let renewalExtensionSummary = """
        {
          "notificationType": "RENEWAL_EXTENSION",
          "subtype": "SUMMARY",
          "notificationUUID": "3a7ba2e5-0000-4f4f-8f8f-000000000001",
          "version": "2.0",
          "signedDate": 1708769475000,
          "summary": {
            "environment": "Sandbox",
            "appAppleId": 41234,
            "bundleId": "com.example.pro",
            "productId": "com.example.pro.monthly",
            "requestIdentifier": "efb27071-45a4-4aca-9854-2a1e9146f265",
            "storefrontCountryCodes": ["CAN", "USA", "MEX"],
            "succeededCount": 5,
            "failedCount": 2
          }
        }
        """

    let externalPurchaseToken = """
        {
          "notificationType": "EXTERNAL_PURCHASE_TOKEN",
          "subtype": "UNREPORTED",
          "notificationUUID": "3a7ba2e5-0000-4f4f-8f8f-000000000002",
          "version": "2.0",
          "signedDate": 1708769475000,
          "externalPurchaseToken": {
            "externalPurchaseId": "b2158121-7af9-49d4-9561-1f588205523e",
            "tokenCreationDate": 1708683072000,
            "appAppleId": 55555,
            "bundleId": "com.example.web"
          }
        }
        """

    @Test func decodesApplesTestNotification() throws {
        let payload = try decode(ResponseBodyV2DecodedPayload.self, appleLibraryTestNotification)
        #expect(payload.notificationType == .test)
        #expect(payload.subtype == nil)
        #expect(payload.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
        #expect(payload.signedDateValue == Date(timeIntervalSince1970: 1_681_314_324))
        #expect(payload.data?.appAppleId == 1234)
        #expect(payload.data?.environment == .sandbox)
        #expect(payload.bundleId == "com.example")
        #expect(payload.appAppleId == 1234)
        #expect(payload.environment == .sandbox)
        #expect(payload.version == nil)
    }

    @Test func decodesARefundWithEveryDataField() throws {
        let payload = try decode(ResponseBodyV2DecodedPayload.self, refund)
        #expect(payload.notificationType == .refund)
        #expect(payload.version == "2.0")
        let data = try #require(payload.data)
        #expect(data.appAppleId == 6_450_000_001)
        #expect(data.bundleId == "com.example.game")
        #expect(data.bundleVersion == "42")
        #expect(data.environment == .production)
        #expect(data.signedTransactionInfo?.hasPrefix("eyJhbGciOiJFUzI1NiJ9.") == true)
        #expect(data.signedRenewalInfo?.split(separator: ".").count == 3)
        #expect(data.status == .revoked)
        #expect(data.consumptionRequestReason == .unintendedPurchase)
        #expect(payload.summary == nil)
        #expect(payload.externalPurchaseToken == nil)
    }

    @Test func decodesARenewalExtensionSummary() throws {
        let payload = try decode(ResponseBodyV2DecodedPayload.self, renewalExtensionSummary)
        #expect(payload.notificationType == .renewalExtension)
        #expect(payload.subtype == .summary)
        #expect(payload.data == nil)
        let summary = try #require(payload.summary)
        #expect(summary.requestIdentifier == "efb27071-45a4-4aca-9854-2a1e9146f265")
        #expect(summary.storefrontCountryCodes == ["CAN", "USA", "MEX"])
        #expect(summary.succeededCount == 5)
        #expect(summary.failedCount == 2)
        #expect(payload.bundleId == "com.example.pro")
        #expect(payload.appAppleId == 41234)
        #expect(payload.environment == .sandbox)
    }

    @Test func decodesAnExternalPurchaseToken() throws {
        let payload = try decode(ResponseBodyV2DecodedPayload.self, externalPurchaseToken)
        #expect(payload.notificationType == .externalPurchaseToken)
        #expect(payload.subtype == .unreported)
        let token = try #require(payload.externalPurchaseToken)
        #expect(token.externalPurchaseId == "b2158121-7af9-49d4-9561-1f588205523e")
        #expect(token.tokenCreationDateValue == Date(timeIntervalSince1970: 1_708_683_072))
        #expect(payload.bundleId == "com.example.web")
        #expect(payload.appAppleId == 55555)
        #expect(payload.environment == nil)
    }

    @Test func reEncodingGivesBackTheSameJSON() throws {
        let unknown: Set = ["appData", "retryCount"]
        for json in [appleLibraryTestNotification, refund, renewalExtensionSummary, externalPurchaseToken] {
            let payload = try decode(ResponseBodyV2DecodedPayload.self, json)
            #expect(try JSONValue(encoding: payload) == JSONValue(json).removing(unknown))
            #expect(try roundTrip(payload) == payload)
        }
    }

    @Test func buildsANotificationAsTheEmulatorWould() throws {
        var payload = ResponseBodyV2DecodedPayload(
            notificationType: .oneTimeCharge, notificationUUID: "n-1",
            data: NotificationData(
                appAppleId: 1, bundleId: "com.example.game", environment: .sandbox,
                signedTransactionInfo: "a.b.c"),
            version: "2.0")
        payload.signedDateValue = Date(timeIntervalSince1970: 1_708_683_072)
        let json = try JSONValue(encoding: payload)
        #expect(json["notificationType"] == .string("ONE_TIME_CHARGE"))
        #expect(json["signedDate"] == .number(1_708_683_072_000))
        #expect(json["data"]?["signedTransactionInfo"] == .string("a.b.c"))
        #expect(json["subtype"] == nil)
    }

    @Test func decodesAndEncodesTheHTTPBody() throws {
        let body = try decode(ResponseBodyV2.self, #"{"signedPayload":"x.y.z","extra":1}"#)
        #expect(body.signedPayload == "x.y.z")
        #expect(try JSONValue(encoding: body) == JSONValue(#"{"signedPayload":"x.y.z"}"#))
        #expect(try decode(ResponseBodyV2.self, "{}").signedPayload == nil)
    }
}
