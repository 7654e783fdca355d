import AppStoreModel
import Foundation
import Testing

struct JWSTransactionDecodedPayloadTests {
    /// The payload of a real sandbox transaction signed by Apple (see
    /// shared/testdata/apple/jws/QysmatApp-transaction-1.jws).
    let appleSandboxSubscription = """
        {"transactionId":"2000000302596403","originalTransactionId":"2000000302178785",\
        "webOrderLineItemId":"2000000023886982","bundleId":"com.app.qysmat",\
        "productId":"com.app.qysmat.premium.child.individual.subscription",\
        "subscriptionGroupIdentifier":"21289261","purchaseDate":1679899642000,\
        "originalPurchaseDate":1679734126000,"expiresDate":1679899942000,"quantity":1,\
        "type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED",\
        "signedDate":1679899657454,"environment":"Sandbox"}
        """

    /// A consumable with every documented field, plus fields this model does not know.
    let fullConsumable = """
        {
          "transactionId": "2000000812345678",
          "originalTransactionId": "2000000812345678",
          "bundleId": "com.example.game",
          "productId": "com.example.game.coins.100",
          "purchaseDate": 1708683072000,
          "originalPurchaseDate": 1708683072000,
          "quantity": 3,
          "type": "Consumable",
          "appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138",
          "inAppOwnershipType": "PURCHASED",
          "signedDate": 1708683075123,
          "revocationReason": 1,
          "revocationDate": 1708769472000,
          "isUpgraded": false,
          "offerType": 2,
          "offerIdentifier": "spring-sale",
          "environment": "Production",
          "storefront": "USA",
          "storefrontId": "143441",
          "transactionReason": "PURCHASE",
          "price": 2990,
          "currency": "USD",
          "offerDiscountType": "ONE_TIME",
          "appTransactionId": "704289572311227392",
          "offerPeriod": "P1M",
          "revocationType": "REFUND_PRORATED",
          "revocationPercentage": 25000,
          "billingPlanType": "MONTHLY",
          "commitmentInfo": {"billingPeriodNumber": 3, "commitmentExpiresDate": 1737627072000, "commitmentPrice": 119880, "totalBillingPeriods": 12},
          "advancedCommerceInfo": {"requestReferenceId": "abc", "items": [1, 2, 3]},
          "someFutureFlag": true
        }
        """

    @Test func decodesARealAppleTransaction() throws {
        let payload = try decode(JWSTransactionDecodedPayload.self, appleSandboxSubscription)
        #expect(payload.transactionId == "2000000302596403")
        #expect(payload.originalTransactionId == "2000000302178785")
        #expect(payload.webOrderLineItemId == "2000000023886982")
        #expect(payload.bundleId == "com.app.qysmat")
        #expect(payload.subscriptionGroupIdentifier == "21289261")
        #expect(payload.type == .autoRenewable)
        #expect(payload.inAppOwnershipType == .purchased)
        #expect(payload.environment == .sandbox)
        #expect(payload.quantity == 1)
        #expect(payload.purchaseDate == 1_679_899_642_000)
        #expect(payload.expiresDateValue == Date(timeIntervalSince1970: 1_679_899_942))
        #expect(payload.signedDateValue == Date(timeIntervalSince1970: 1_679_899_657.454))
        #expect(payload.appAccountToken == nil)
        #expect(payload.isRevoked == false)
    }

    @Test func decodesEveryFieldAndIgnoresUnknownOnes() throws {
        let payload = try decode(JWSTransactionDecodedPayload.self, fullConsumable)
        #expect(payload.type == .consumable)
        #expect(payload.quantity == 3)
        #expect(payload.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(
            payload.appAccountTokenUUID
                == UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"))
        #expect(payload.revocationReason == .refundedDueToIssue)
        #expect(payload.revocationDateValue == Date(timeIntervalSince1970: 1_708_769_472))
        #expect(payload.isRevoked)
        #expect(payload.isUpgraded == false)
        #expect(payload.offerType == .promotional)
        #expect(payload.offerIdentifier == "spring-sale")
        #expect(payload.environment == .production)
        #expect(payload.storefront == "USA")
        #expect(payload.storefrontId == "143441")
        #expect(payload.transactionReason == .purchase)
        #expect(payload.price == 2990)
        #expect(payload.currency == "USD")
        #expect(payload.offerDiscountType == .oneTime)
        #expect(payload.appTransactionId == "704289572311227392")
        #expect(payload.offerPeriod == "P1M")
        #expect(payload.revocationType == .refundProrated)
        #expect(payload.revocationPercentage == 25000)
        #expect(payload.revokedShare == 25000)
        #expect(payload.billingPlanType == .monthly)
        #expect(
            payload.commitmentInfo
                == TransactionCommitmentInfo(
                    billingPeriodNumber: 3, commitmentExpiresDate: 1_737_627_072_000, commitmentPrice: 119_880,
                    totalBillingPeriods: 12))
        #expect(payload.purchaseDateValue == Date(timeIntervalSince1970: 1_708_683_072))
        #expect(payload.originalPurchaseDateValue == payload.purchaseDateValue)
        #expect(payload.expiresDateValue == nil)
    }

    @Test func reEncodingGivesBackTheSameJSON() throws {
        for json in [appleSandboxSubscription, fullConsumable] {
            let payload = try decode(JWSTransactionDecodedPayload.self, json)
            let unknown: Set = ["advancedCommerceInfo", "someFutureFlag"]
            #expect(try JSONValue(encoding: payload) == JSONValue(json).removing(unknown))
            #expect(try roundTrip(payload) == payload)
        }
    }

    @Test("the revoked share: the prorated percentage, else the whole, clamped; none when not revoked")
    func revokedShare() {
        let revoked = JWSTransactionDecodedPayload(revocationDate: 1_708_769_472_000)
        #expect(JWSTransactionDecodedPayload().revokedShare == nil)
        #expect(revoked.revokedShare == Milliunits.whole)
        var prorated = revoked
        prorated.revocationType = .refundProrated
        #expect(prorated.revokedShare == Milliunits.whole)
        for (percentage, share) in [(30_000, 30_000), (-5, 0), (250_000, Milliunits.whole)] {
            prorated.revocationPercentage = percentage
            #expect(prorated.revokedShare == share)
        }
        var full = revoked
        full.revocationType = .refundFull
        full.revocationPercentage = 40_000
        #expect(full.revokedShare == Milliunits.whole)
        var family = revoked
        family.revocationType = .familyRevoke
        #expect(family.revokedShare == Milliunits.whole)
    }

    @Test func decodesAnEmptyObject() throws {
        let payload = try decode(JWSTransactionDecodedPayload.self, "{}")
        #expect(payload == JWSTransactionDecodedPayload())
        #expect(payload.purchaseDateValue == nil)
        #expect(payload.appAccountTokenUUID == nil)
        #expect(try JSONValue(encoding: payload) == .object([:]))
    }

    @Test func keepsAnAppAccountTokenThatIsNotAUUID() throws {
        let payload = try decode(
            JWSTransactionDecodedPayload.self, #"{"appAccountToken":"player-42"}"#)
        #expect(payload.appAccountToken == "player-42")
        #expect(payload.appAccountTokenUUID == nil)
    }

    @Test func dateAccessorsStoreWholeMilliseconds() throws {
        var payload = JWSTransactionDecodedPayload(transactionId: "1")
        payload.purchaseDateValue = Date(timeIntervalSince1970: 1_708_683_072.123)
        payload.signedDateValue = Date(timeIntervalSince1970: 1_708_683_075)
        #expect(payload.purchaseDate == 1_708_683_072_123)
        #expect(payload.signedDate == 1_708_683_075_000)
        #expect(try JSONValue(encoding: payload)["purchaseDate"] == .number(1_708_683_072_123))
        payload.purchaseDateValue = nil
        #expect(payload.purchaseDate == nil)
    }

    @Test func memberwiseInitializerBuildsWhatAnEmulatorSigns() throws {
        let payload = JWSTransactionDecodedPayload(
            transactionId: "1", originalTransactionId: "1", bundleId: "com.example.game",
            productId: "coins", purchaseDate: 1_708_683_072_000, quantity: 1, type: .consumable,
            appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138", signedDate: 1_708_683_072_500,
            environment: .xcode, price: 990, currency: "EUR")
        let json = try JSONValue(encoding: payload)
        #expect(json["type"] == .string("Consumable"))
        #expect(json["environment"] == .string("Xcode"))
        #expect(json["price"] == .number(990))
        #expect(json["expiresDate"] == nil)
        #expect(try roundTrip(payload) == payload)
    }
}
