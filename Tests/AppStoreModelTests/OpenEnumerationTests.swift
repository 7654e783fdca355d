import AppStoreModel
import Foundation
import Testing

struct OpenEnumerationTests {
    @Test func knownStringValuesDecodeToTheirConstants() throws {
        #expect(try decode(ProductType.self, #""Auto-Renewable Subscription""#) == .autoRenewable)
        #expect(try decode(ProductType.self, #""Non-Consumable""#) == .nonConsumable)
        #expect(try decode(InAppOwnershipType.self, #""FAMILY_SHARED""#) == .familyShared)
        #expect(try decode(TransactionReason.self, #""RENEWAL""#) == .renewal)
        #expect(try decode(NotificationType.self, #""ONE_TIME_CHARGE""#) == .oneTimeCharge)
        #expect(try decode(NotificationSubtype.self, #""BILLING_RECOVERY""#) == .billingRecovery)
        #expect(try decode(OfferDiscountType.self, #""PAY_AS_YOU_GO""#) == .payAsYouGo)
        #expect(
            try decode(ConsumptionRequestReason.self, #""UNINTENDED_PURCHASE""#)
                == .unintendedPurchase)
        #expect(try decode(PurchasePlatform.self, #""visionOS""#) == .visionOS)
        #expect(try decode(AppStoreEnvironment.self, #""LocalTesting""#) == .localTesting)
    }

    @Test func knownIntegerValuesDecodeToTheirConstants() throws {
        #expect(try decode(OfferType.self, "4") == .winBack)
        #expect(try decode(RevocationReason.self, "1") == .refundedDueToIssue)
        #expect(try decode(AutoRenewStatus.self, "0") == .off)
        #expect(try decode(ExpirationIntent.self, "3") == .customerDidNotConsentToPriceIncrease)
        #expect(try decode(PriceIncreaseStatus.self, "1") == .customerConsentedOrWasNotified)
        #expect(try decode(SubscriptionStatus.self, "4") == .billingGracePeriod)
        #expect(try decode(VerifyReceiptStatus.self, "21007") == .sandboxReceiptSentToProduction)
    }

    @Test func unknownValuesDecodeUnchangedAndEncodeBack() throws {
        let type = try decode(NotificationType.self, #""SOMETHING_NEW_IN_2030""#)
        #expect(type.rawValue == "SOMETHING_NEW_IN_2030")
        #expect(type != .test)
        #expect(try JSONValue(encoding: type) == .string("SOMETHING_NEW_IN_2030"))

        let offer = try decode(OfferType.self, "17")
        #expect(offer.rawValue == 17)
        #expect(try JSONValue(encoding: offer) == .number(17))

        let status = try decode(VerifyReceiptStatus.self, "21142")
        #expect(status.rawValue == 21142)
        #expect(status.isInternalError)
    }

    @Test func unknownValuesInsideAPayloadDoNotFailIt() throws {
        let payload = try decode(
            JWSTransactionDecodedPayload.self,
            #"{"type":"Super-Consumable","offerType":9,"environment":"Staging","transactionReason":"GIFT"}"#
        )
        #expect(payload.type == ProductType(rawValue: "Super-Consumable"))
        #expect(payload.offerType == OfferType(rawValue: 9))
        #expect(payload.environment == AppStoreEnvironment(rawValue: "Staging"))
        #expect(payload.transactionReason?.rawValue == "GIFT")
    }

    @Test func rawValuesMatchApplesStrings() {
        #expect(ProductType.consumable.rawValue == "Consumable")
        #expect(ProductType.nonRenewing.rawValue == "Non-Renewing Subscription")
        #expect(NotificationType.didChangeRenewalPref.rawValue == "DID_CHANGE_RENEWAL_PREF")
        #expect(NotificationType.rescindConsent.rawValue == "RESCIND_CONSENT")
        #expect(NotificationSubtype.productNotForSale.rawValue == "PRODUCT_NOT_FOR_SALE")
        #expect(OfferType.offerCode.rawValue == 3)
        #expect(SubscriptionStatus.revoked.rawValue == 5)
    }

    @Test func literalsAndDescription() {
        let type: NotificationType = "REFUND"
        #expect(type == .refund)
        #expect(type.description == "REFUND")
        let offer: OfferType = 2
        #expect(offer == .promotional)
        #expect(offer.description == "2")
        #expect("\(VerifyReceiptStatus.valid)" == "0")
    }

    @Test func integerEnumerationsReadVerifyReceiptStrings() {
        #expect(ExpirationIntent(StringNumber(stringValue: "2")) == .billingError)
        #expect(AutoRenewStatus(StringNumber(stringValue: "1")) == .on)
        #expect(RevocationReason(StringNumber(stringValue: "0")) == .refundedForOtherReason)
        #expect(ExpirationIntent(StringNumber(stringValue: "n/a")) == nil)
        #expect(ExpirationIntent(nil as StringNumber?) == nil)
    }
}
