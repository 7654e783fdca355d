import AppStoreModel
import Foundation
import Testing

struct VerifyReceiptResponseTests {
    /// A production response for an app with a consumable in the receipt and a
    /// subscription, shaped as Apple documents it; numbers and flags as strings, plus
    /// fields this model does not know.
    let production = """
        {
          "status": 0,
          "environment": "Production",
          "receipt": {
            "receipt_type": "Production",
            "adam_id": 6450000001,
            "app_item_id": 6450000001,
            "bundle_id": "com.example.game",
            "application_version": "42",
            "download_id": 80012345678901,
            "version_external_identifier": 862345123,
            "receipt_creation_date": "2024-02-23 10:11:15 Etc/GMT",
            "receipt_creation_date_ms": "1708683075000",
            "receipt_creation_date_pst": "2024-02-23 02:11:15 America/Los_Angeles",
            "request_date": "2024-02-23 10:20:00 Etc/GMT",
            "request_date_ms": "1708683600000",
            "request_date_pst": "2024-02-23 02:20:00 America/Los_Angeles",
            "original_purchase_date": "2023-07-01 08:00:00 Etc/GMT",
            "original_purchase_date_ms": "1688198400000",
            "original_purchase_date_pst": "2023-07-01 01:00:00 America/Los_Angeles",
            "original_application_version": "1.0",
            "in_app": [
              {
                "quantity": "3",
                "product_id": "com.example.game.coins.100",
                "transaction_id": "2000000812345678",
                "original_transaction_id": "2000000812345678",
                "purchase_date": "2024-02-23 10:11:12 Etc/GMT",
                "purchase_date_ms": "1708683072000",
                "purchase_date_pst": "2024-02-23 02:11:12 America/Los_Angeles",
                "original_purchase_date": "2024-02-23 10:11:12 Etc/GMT",
                "original_purchase_date_ms": "1708683072000",
                "original_purchase_date_pst": "2024-02-23 02:11:12 America/Los_Angeles",
                "is_trial_period": "false",
                "in_app_ownership_type": "PURCHASED",
                "app_account_token": "7e3fb20b-4cdb-47cc-936d-99d65f608138"
              }
            ],
            "some_future_receipt_field": {"nested": [1, 2]}
          },
          "latest_receipt_info": [
            {
              "quantity": "1",
              "product_id": "com.example.pro.monthly",
              "transaction_id": "2000000812349999",
              "original_transaction_id": "2000000812340000",
              "purchase_date": "2024-07-04 18:30:45 Etc/GMT",
              "purchase_date_ms": "1720117845000",
              "purchase_date_pst": "2024-07-04 11:30:45 America/Los_Angeles",
              "original_purchase_date": "2024-02-23 10:12:00 Etc/GMT",
              "original_purchase_date_ms": "1708683120000",
              "original_purchase_date_pst": "2024-02-23 02:12:00 America/Los_Angeles",
              "expires_date": "2024-08-04 18:30:45 Etc/GMT",
              "expires_date_ms": "1722796245000",
              "expires_date_pst": "2024-08-04 11:30:45 America/Los_Angeles",
              "web_order_line_item_id": "2000000067890123",
              "is_trial_period": "false",
              "is_in_intro_offer_period": "true",
              "is_upgraded": "true",
              "cancellation_date": "2024-07-05 00:00:00 Etc/GMT",
              "cancellation_date_ms": "1720137600000",
              "cancellation_date_pst": "2024-07-04 17:00:00 America/Los_Angeles",
              "cancellation_reason": "1",
              "in_app_ownership_type": "FAMILY_SHARED",
              "subscription_group_identifier": "21289261",
              "promotional_offer_id": "loyal-customer",
              "offer_code_ref_name": "SUMMER24"
            }
          ],
          "latest_receipt": "MIIUVAYJKoZIhvcNAQcCoIIURTCCFEECAQExDzANBglghkgBZQMEAgEFADCCA4oG",
          "pending_renewal_info": [
            {
              "auto_renew_product_id": "com.example.pro.yearly",
              "auto_renew_status": "0",
              "expiration_intent": "1",
              "is_in_billing_retry_period": "0",
              "original_transaction_id": "2000000812340000",
              "product_id": "com.example.pro.monthly",
              "grace_period_expires_date": "2024-08-20 18:30:45 Etc/GMT",
              "grace_period_expires_date_ms": "1724178645000",
              "grace_period_expires_date_pst": "2024-08-20 11:30:45 America/Los_Angeles",
              "price_consent_status": "1",
              "offer_code_ref_name": "SUMMER24",
              "promotional_offer_id": "loyal-customer"
            }
          ],
          "unified_receipt": {"status": 0}
        }
        """

    @Test func decodesTheReceipt() throws {
        let response = try decode(VerifyReceiptResponse.self, production)
        #expect(response.status == .valid)
        #expect(response.environment == .production)
        let receipt = try #require(response.receipt)
        #expect(receipt.receiptType == "Production")
        #expect(receipt.adamId == 6_450_000_001)
        #expect(receipt.appItemId == 6_450_000_001)
        #expect(receipt.bundleId == "com.example.game")
        #expect(receipt.applicationVersion == "42")
        #expect(receipt.downloadId == 80_012_345_678_901)
        #expect(receipt.versionExternalIdentifier == 862_345_123)
        #expect(receipt.receiptCreationDateValue == Date(timeIntervalSince1970: 1_708_683_075))
        #expect(receipt.requestDateValue == Date(timeIntervalSince1970: 1_708_683_600))
        #expect(receipt.originalPurchaseDateValue == Date(timeIntervalSince1970: 1_688_198_400))
        #expect(receipt.originalApplicationVersion == "1.0")
        #expect(receipt.expirationDateValue == nil)
    }

    @Test func decodesAConsumableInTheReceipt() throws {
        let response = try decode(VerifyReceiptResponse.self, production)
        let coins = try #require(response.receipt?.inApp?.first)
        #expect(coins.quantity?.intValue == 3)
        #expect(coins.productId == "com.example.game.coins.100")
        #expect(coins.transactionId == "2000000812345678")
        #expect(coins.purchaseDateValue == Date(timeIntervalSince1970: 1_708_683_072))
        #expect(coins.purchaseDatePst == "2024-02-23 02:11:12 America/Los_Angeles")
        #expect(coins.isTrialPeriod?.boolValue == false)
        #expect(coins.isInIntroOfferPeriod == nil)
        #expect(coins.inAppOwnershipType == .purchased)
        #expect(
            coins.appAccountTokenUUID == UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"))
        #expect(coins.expiresDateValue == nil)
        #expect(!coins.isCancelled)
    }

    @Test func decodesACancelledSubscriptionTransaction() throws {
        let response = try decode(VerifyReceiptResponse.self, production)
        let pro = try #require(response.latestReceiptInfo?.first)
        #expect(pro.quantity == StringNumber(1))
        #expect(pro.expiresDateValue == Date(timeIntervalSince1970: 1_722_796_245))
        #expect(pro.originalPurchaseDateValue == Date(timeIntervalSince1970: 1_708_683_120))
        #expect(pro.webOrderLineItemId == "2000000067890123")
        #expect(pro.isInIntroOfferPeriod?.boolValue == true)
        #expect(pro.isUpgraded?.boolValue == true)
        #expect(pro.cancellationDateValue == Date(timeIntervalSince1970: 1_720_137_600))
        #expect(RevocationReason(pro.cancellationReason) == .refundedDueToIssue)
        #expect(pro.isCancelled)
        #expect(pro.inAppOwnershipType == .familyShared)
        #expect(pro.subscriptionGroupIdentifier == "21289261")
        #expect(pro.promotionalOfferId == "loyal-customer")
        #expect(pro.offerCodeRefName == "SUMMER24")
        #expect(response.latestTransactions == [pro])
        #expect(response.latestReceipt?.hasPrefix("MIIUVAYJ") == true)
    }

    @Test func decodesPendingRenewalInfo() throws {
        let response = try decode(VerifyReceiptResponse.self, production)
        let renewal = try #require(response.pendingRenewalInfo?.first)
        #expect(renewal.autoRenewProductId == "com.example.pro.yearly")
        #expect(AutoRenewStatus(renewal.autoRenewStatus) == .off)
        #expect(ExpirationIntent(renewal.expirationIntent) == .customerCancelled)
        #expect(renewal.isInBillingRetryPeriod?.boolValue == false)
        #expect(renewal.originalTransactionId == "2000000812340000")
        #expect(renewal.productId == "com.example.pro.monthly")
        #expect(renewal.gracePeriodExpiresDateValue == Date(timeIntervalSince1970: 1_724_178_645))
        #expect(PriceIncreaseStatus(renewal.priceConsentStatus) == .customerConsentedOrWasNotified)
    }

    @Test func reEncodingGivesBackApplesJSONExceptUnknownFields() throws {
        let response = try decode(VerifyReceiptResponse.self, production)
        let expected = try JSONValue(production).removing(
            ["some_future_receipt_field", "unified_receipt"])
        #expect(try JSONValue(encoding: response) == expected)
        #expect(try roundTrip(response) == response)
    }

    @Test func acceptsNumbersWhereAppleSendsStrings() throws {
        let json = """
            {
              "status": "0",
              "receipt": {
                "adam_id": "6450000001",
                "in_app": [{
                  "quantity": 2,
                  "purchase_date_ms": 1708683072000,
                  "is_trial_period": false,
                  "cancellation_reason": 0
                }]
              },
              "pending_renewal_info": [{"auto_renew_status": 1, "is_in_billing_retry_period": 1}]
            }
            """
        let response = try decode(VerifyReceiptResponse.self, json)
        #expect(response.status == .valid)
        #expect(response.receipt?.adamId == 6_450_000_001)
        let item = try #require(response.receipt?.inApp?.first)
        #expect(item.quantity?.intValue == 2)
        #expect(item.purchaseDateValue == Date(timeIntervalSince1970: 1_708_683_072))
        #expect(item.isTrialPeriod?.boolValue == false)
        #expect(RevocationReason(item.cancellationReason) == .refundedForOtherReason)
        #expect(AutoRenewStatus(response.pendingRenewalInfo?.first?.autoRenewStatus) == .on)
        #expect(response.pendingRenewalInfo?.first?.isInBillingRetryPeriod?.boolValue == true)

        // Re-encoded the way Apple sends them: strings for in_app, numbers for the receipt.
        let encoded = try JSONValue(encoding: response)
        #expect(encoded["status"] == .number(0))
        #expect(encoded["receipt"]?["adam_id"] == .number(6_450_000_001))
        #expect(encoded["receipt"]?["in_app"]?[0]?["quantity"] == .string("2"))
        #expect(encoded["receipt"]?["in_app"]?[0]?["purchase_date_ms"] == .string("1708683072000"))
        #expect(encoded["receipt"]?["in_app"]?[0]?["is_trial_period"] == .string("false"))
    }

    @Test func rejectsAResponseWithoutStatus() {
        #expect(throws: DecodingError.self) {
            try decode(VerifyReceiptResponse.self, #"{"environment":"Sandbox"}"#)
        }
        #expect(throws: DecodingError.self) {
            try decode(VerifyReceiptResponse.self, #"{"status":"ok"}"#)
        }
    }

    @Test func decodesAnErrorResponse() throws {
        let response = try decode(VerifyReceiptResponse.self, #"{"status":21007}"#)
        #expect(response.status.isSandboxReceiptSentToProduction)
        #expect(response.receipt == nil)
        #expect(response.latestTransactions.isEmpty)
        #expect(!response.shouldRetry)
    }

    @Test(arguments: [
        (#"{"status":21105,"is-retryable":true}"#, true),
        (#"{"status":21105,"is-retryable":false}"#, false),
        (#"{"status":21105,"is_retryable":false}"#, false),
        (#"{"status":21105,"is-retryable":1}"#, true),
        (#"{"status":21105,"is-retryable":"0"}"#, false),
        (#"{"status":21105}"#, true),
        (#"{"status":21005}"#, true),
        (#"{"status":21003}"#, false),
    ])
    func honoursIsRetryable(json: String, shouldRetry: Bool) throws {
        #expect(try decode(VerifyReceiptResponse.self, json).shouldRetry == shouldRetry)
    }

    @Test func encodesIsRetryableUnderApplesKey() throws {
        let response = VerifyReceiptResponse(status: 21150, isRetryable: true)
        #expect(try JSONValue(encoding: response) == JSONValue(#"{"status":21150,"is-retryable":true}"#))
    }

    @Test func buildsAResponseFromDatesAsTheEmulatorWould() throws {
        let purchased = Date(timeIntervalSince1970: 1_720_117_845)
        let item = VerifyReceiptResponse.InApp(
            quantity: 1, productId: "coins", transactionId: "7", originalTransactionId: "7",
            purchaseDateValue: purchased, originalPurchaseDateValue: purchased, isTrialPeriod: false)
        let receipt = VerifyReceiptResponse.Receipt(
            receiptType: "ProductionSandbox", adamId: 0, bundleId: "com.example.game",
            applicationVersion: "1", receiptCreationDateValue: Date(timeIntervalSince1970: 1_708_683_072),
            inApp: [item])
        let response = VerifyReceiptResponse(status: .valid, environment: .sandbox, receipt: receipt)

        let json = try JSONValue(encoding: response)
        let encodedItem = try #require(json["receipt"]?["in_app"]?[0])
        #expect(encodedItem["quantity"] == .string("1"))
        #expect(encodedItem["purchase_date"] == .string("2024-07-04 18:30:45 Etc/GMT"))
        #expect(encodedItem["purchase_date_ms"] == .string("1720117845000"))
        #expect(encodedItem["purchase_date_pst"] == .string("2024-07-04 11:30:45 America/Los_Angeles"))
        #expect(encodedItem["is_trial_period"] == .string("false"))
        #expect(encodedItem["expires_date"] == nil)
        #expect(json["receipt"]?["receipt_creation_date_pst"] == .string("2024-02-23 02:11:12 America/Los_Angeles"))
        #expect(json["receipt"]?["adam_id"] == .number(0))
        #expect(try roundTrip(response) == response)
        #expect(try roundTrip(response).receipt?.inApp?.first?.purchaseDateValue == purchased)
    }

    @Test func settingADateWritesOrClearsAllThreeFields() {
        var renewal = VerifyReceiptResponse.PendingRenewalInfo(
            gracePeriodExpiresDateValue: Date(timeIntervalSince1970: 1_708_683_072))
        #expect(renewal.gracePeriodExpiresDate == "2024-02-23 10:11:12 Etc/GMT")
        #expect(renewal.gracePeriodExpiresDateMs == "1708683072000")
        #expect(renewal.gracePeriodExpiresDatePst == "2024-02-23 02:11:12 America/Los_Angeles")
        renewal.gracePeriodExpiresDateValue = nil
        #expect(renewal.gracePeriodExpiresDate == nil)
        #expect(renewal.gracePeriodExpiresDateMs == nil)
        #expect(renewal.gracePeriodExpiresDatePst == nil)
    }
}

struct VerifyReceiptRequestTests {
    @Test func encodesApplesKeys() throws {
        let request = VerifyReceiptRequest(
            receiptData: "MIIT", password: "s3cret", excludeOldTransactions: true)
        #expect(
            try JSONValue(encoding: request)
                == JSONValue(#"{"receipt-data":"MIIT","password":"s3cret","exclude-old-transactions":true}"#))
    }

    @Test func omitsAbsentOptionalFields() throws {
        let request = VerifyReceiptRequest(receiptData: "MIIT")
        #expect(try JSONValue(encoding: request) == JSONValue(#"{"receipt-data":"MIIT"}"#))
    }

    @Test func decodesWhatClientsSend() throws {
        let request = try decode(
            VerifyReceiptRequest.self,
            #"{"receipt-data":"MIIT","password":"p","exclude-old-transactions":"true","extra":1}"#)
        #expect(request.receiptData == "MIIT")
        #expect(request.password == "p")
        #expect(request.excludeOldTransactions == true)
        #expect(try roundTrip(request) == request)
    }

    @Test func decodesARequestWithoutReceiptData() throws {
        let request = try decode(VerifyReceiptRequest.self, #"{"password":"p"}"#)
        #expect(request.receiptData == nil)
        #expect(request.excludeOldTransactions == nil)
    }
}
