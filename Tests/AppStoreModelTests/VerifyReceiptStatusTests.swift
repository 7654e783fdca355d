import AppStoreModel
import Testing

struct VerifyReceiptStatusTests {
    @Test func constantsHaveApplesCodes() {
        let codes: [(VerifyReceiptStatus, Int)] = [
            (.valid, 0), (.invalidRequest, 21000), (.noLongerSent, 21001),
            (.malformedReceiptData, 21002), (.notAuthenticated, 21003),
            (.sharedSecretMismatch, 21004), (.serverUnavailable, 21005),
            (.subscriptionExpired, 21006), (.sandboxReceiptSentToProduction, 21007),
            (.productionReceiptSentToSandbox, 21008), (.internalDataAccessError, 21009),
            (.accountNotFound, 21010),
        ]
        for (status, code) in codes {
            #expect(status.rawValue == code)
        }
        #expect(VerifyReceiptStatus.internalErrors == 21100...21199)
    }

    @Test func validityAndReceiptPresence() {
        #expect(VerifyReceiptStatus.valid.isValid)
        #expect(!VerifyReceiptStatus.subscriptionExpired.isValid)
        #expect(VerifyReceiptStatus.valid.includesReceipt)
        #expect(VerifyReceiptStatus.subscriptionExpired.includesReceipt)
        #expect(!VerifyReceiptStatus.notAuthenticated.includesReceipt)
    }

    @Test(arguments: [21002, 21005, 21009, 21100, 21150, 21199])
    func retryableCodes(code: Int) {
        #expect(VerifyReceiptStatus(rawValue: code).isRetryable)
    }

    @Test(arguments: [0, 21000, 21001, 21003, 21004, 21006, 21007, 21008, 21010, 21099, 21200])
    func nonRetryableCodes(code: Int) {
        #expect(!VerifyReceiptStatus(rawValue: code).isRetryable)
    }

    @Test func internalErrorRange() {
        #expect(!VerifyReceiptStatus(rawValue: 21099).isInternalError)
        #expect(VerifyReceiptStatus(rawValue: 21100).isInternalError)
        #expect(VerifyReceiptStatus(rawValue: 21199).isInternalError)
        #expect(!VerifyReceiptStatus(rawValue: 21200).isInternalError)
    }

    @Test func environmentMismatches() {
        let toSandbox: VerifyReceiptStatus = 21007
        #expect(toSandbox.isSandboxReceiptSentToProduction)
        #expect(!toSandbox.isProductionReceiptSentToSandbox)
        #expect(toSandbox.redirectEnvironment == .sandbox)

        let toProduction: VerifyReceiptStatus = 21008
        #expect(toProduction.isProductionReceiptSentToSandbox)
        #expect(!toProduction.isSandboxReceiptSentToProduction)
        #expect(toProduction.redirectEnvironment == .production)

        #expect(VerifyReceiptStatus.valid.redirectEnvironment == nil)
        #expect(VerifyReceiptStatus.serverUnavailable.redirectEnvironment == nil)
    }
}
