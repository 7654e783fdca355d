import AppStoreModel
import Foundation
import Testing

struct JWSRenewalInfoDecodedPayloadTests {
    /// The payload of real sandbox renewal info signed by Apple (see
    /// shared/testdata/apple/jws/go-iap-renewal-1.jws).
    let appleSandboxRenewal = """
        {"originalTransactionId":"2000000335310644","autoRenewProductId":"co.ringalarm.swtich.quarterly2",\
        "productId":"co.ringalarm.swtich.quarterly2","autoRenewStatus":1,"signedDate":1684822778492,\
        "environment":"Sandbox","recentSubscriptionStartDate":1684822738000}
        """

    /// A subscription in its grace period with every documented field and unknown ones.
    let fullRenewal = """
        {
          "expirationIntent": 2,
          "originalTransactionId": "2000000812340000",
          "autoRenewProductId": "com.example.pro.yearly",
          "productId": "com.example.pro.monthly",
          "autoRenewStatus": 0,
          "isInBillingRetryPeriod": true,
          "priceIncreaseStatus": 0,
          "gracePeriodExpiresDate": 1709287872000,
          "offerType": 4,
          "offerIdentifier": "come-back",
          "signedDate": 1708683075000,
          "environment": "Sandbox",
          "recentSubscriptionStartDate": 1700000000000,
          "renewalDate": 1709287872000,
          "currency": "JPY",
          "renewalPrice": 480000,
          "offerDiscountType": "FREE_TRIAL",
          "eligibleWinBackOfferIds": ["come-back", "half-price"],
          "appAccountToken": "1B3F9C5E-7A2D-4E8F-9B0C-123456789ABC",
          "appTransactionId": "704289572311227392",
          "offerPeriod": "P1W",
          "billingPlanType": "MONTHLY",
          "unknownNested": {"a": [true, null]}
        }
        """

    @Test func decodesRealAppleRenewalInfo() throws {
        let payload = try decode(JWSRenewalInfoDecodedPayload.self, appleSandboxRenewal)
        #expect(payload.originalTransactionId == "2000000335310644")
        #expect(payload.autoRenewProductId == "co.ringalarm.swtich.quarterly2")
        #expect(payload.autoRenewStatus == .on)
        #expect(payload.environment == .sandbox)
        #expect(payload.signedDateValue == Date(timeIntervalSince1970: 1_684_822_778.492))
        #expect(payload.recentSubscriptionStartDateValue == Date(timeIntervalSince1970: 1_684_822_738))
        #expect(payload.expirationIntent == nil)
    }

    @Test func decodesEveryFieldAndIgnoresUnknownOnes() throws {
        let payload = try decode(JWSRenewalInfoDecodedPayload.self, fullRenewal)
        #expect(payload.expirationIntent == .billingError)
        #expect(payload.autoRenewStatus == .off)
        #expect(payload.isInBillingRetryPeriod == true)
        #expect(payload.priceIncreaseStatus == .customerHasNotResponded)
        #expect(payload.gracePeriodExpiresDateValue == Date(timeIntervalSince1970: 1_709_287_872))
        #expect(payload.renewalDateValue == payload.gracePeriodExpiresDateValue)
        #expect(payload.offerType == .winBack)
        #expect(payload.currency == "JPY")
        #expect(payload.renewalPrice == 480_000)
        #expect(payload.offerDiscountType == .freeTrial)
        #expect(payload.eligibleWinBackOfferIds == ["come-back", "half-price"])
        #expect(payload.appAccountToken == "1B3F9C5E-7A2D-4E8F-9B0C-123456789ABC")
        #expect(payload.appAccountTokenUUID?.uuidString == "1B3F9C5E-7A2D-4E8F-9B0C-123456789ABC")
        #expect(payload.offerPeriod == "P1W")
    }

    @Test func reEncodingGivesBackTheSameJSON() throws {
        for json in [appleSandboxRenewal, fullRenewal] {
            let payload = try decode(JWSRenewalInfoDecodedPayload.self, json)
            let unknown: Set = ["billingPlanType", "unknownNested"]
            #expect(try JSONValue(encoding: payload) == JSONValue(json).removing(unknown))
            #expect(try roundTrip(payload) == payload)
        }
    }

    @Test func dateAccessorsWriteMilliseconds() {
        var payload = JWSRenewalInfoDecodedPayload()
        payload.renewalDateValue = Date(timeIntervalSince1970: 1_709_287_872)
        payload.gracePeriodExpiresDateValue = Date(timeIntervalSince1970: 1_709_287_872.5)
        #expect(payload.renewalDate == 1_709_287_872_000)
        #expect(payload.gracePeriodExpiresDate == 1_709_287_872_500)
    }
}
