import AppStoreModel
import Foundation
import Testing

struct JWSAppTransactionDecodedPayloadTests {
    let appTransaction = """
        {
          "receiptType": "Production",
          "appAppleId": 6450000001,
          "bundleId": "com.example.game",
          "applicationVersion": "42",
          "versionExternalIdentifier": 862345123,
          "receiptCreationDate": 1708683072000,
          "originalPurchaseDate": 1688198400000,
          "originalApplicationVersion": "1.0",
          "deviceVerification": "d2hhdGV2ZXIgYnl0ZXM=",
          "deviceVerificationNonce": "48c8b92d-ce0d-4229-bedf-e61b4f9cfc92",
          "preorderDate": 1688000000000,
          "appTransactionId": "704289572311227392",
          "originalPlatform": "iOS",
          "signedDate": 1708683072500,
          "appVersionId": 1,
          "somethingNew": "ignored"
        }
        """

    @Test func decodesEveryField() throws {
        let payload = try decode(JWSAppTransactionDecodedPayload.self, appTransaction)
        #expect(payload.receiptType == .production)
        #expect(payload.appAppleId == 6_450_000_001)
        #expect(payload.bundleId == "com.example.game")
        #expect(payload.applicationVersion == "42")
        #expect(payload.versionExternalIdentifier == 862_345_123)
        #expect(payload.receiptCreationDateValue == Date(timeIntervalSince1970: 1_708_683_072))
        #expect(payload.originalPurchaseDateValue == Date(timeIntervalSince1970: 1_688_198_400))
        #expect(payload.originalApplicationVersion == "1.0")
        #expect(payload.deviceVerification == "d2hhdGV2ZXIgYnl0ZXM=")
        #expect(
            payload.deviceVerificationNonceUUID
                == UUID(uuidString: "48C8B92D-CE0D-4229-BEDF-E61B4F9CFC92"))
        #expect(payload.preorderDateValue == Date(timeIntervalSince1970: 1_688_000_000))
        #expect(payload.appTransactionId == "704289572311227392")
        #expect(payload.originalPlatform == .iOS)
        #expect(payload.signedDateValue == Date(timeIntervalSince1970: 1_708_683_072.5))
    }

    @Test func reEncodingGivesBackTheSameJSON() throws {
        let payload = try decode(JWSAppTransactionDecodedPayload.self, appTransaction)
        let expected = try JSONValue(appTransaction).removing(["appVersionId", "somethingNew"])
        #expect(try JSONValue(encoding: payload) == expected)
        #expect(try roundTrip(payload) == payload)
    }

    @Test func decodesASandboxAppTransactionWithoutAppAppleId() throws {
        let payload = try decode(
            JWSAppTransactionDecodedPayload.self,
            #"{"receiptType":"Sandbox","bundleId":"com.example.game","originalPlatform":"watchOS"}"#)
        #expect(payload.receiptType == .sandbox)
        #expect(payload.appAppleId == nil)
        #expect(payload.originalPlatform?.rawValue == "watchOS")
    }
}
