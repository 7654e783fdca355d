import AppStoreModel
import AppStoreVerification
import Foundation

/// Apple's verifyReceipt, with its status semantics.
extension AppStoreEmulator {
    /// Answers a verifyReceipt request body sent to `endpoint` (production or sandbox).
    ///
    /// Statuses: 21000 unreadable JSON; 21002 missing or malformed receipt data; 21003 a
    /// receipt that does not verify; 21004 a wrong shared secret (when one is configured
    /// and the request gives one); 21007 a sandbox receipt sent to production; 21008 the
    /// reverse; 0 with the receipt's contents otherwise, and for subscriptions
    /// `latest_receipt_info` and `pending_renewal_info`.
    public func verifyReceipt(_ body: Data, at endpoint: AppStoreEnvironment) async -> VerifyReceiptResponse {
        guard let request = try? JSONDecoder().decode(VerifyReceiptRequest.self, from: body) else {
            return VerifyReceiptResponse(status: .invalidRequest)
        }
        guard let receiptData = request.receiptData, !receiptData.isEmpty else {
            return VerifyReceiptResponse(status: .malformedReceiptData)
        }
        let verified: VerifiedReceipt
        do {
            verified = try await receiptVerifier.verify(base64Encoded: receiptData)
        } catch {
            switch error.code {
            case .malformedEncoding, .malformedContainer, .malformedPayload, .inputTooLarge, .unsupportedReceiptFormat:
                return VerifyReceiptResponse(status: .malformedReceiptData)
            default:
                return VerifyReceiptResponse(status: .notAuthenticated)
            }
        }
        let receipt = verified.receipt
        let receiptEnvironment = receipt.environment ?? .production
        if receiptEnvironment == .sandbox && endpoint == .production {
            return VerifyReceiptResponse(status: .sandboxReceiptSentToProduction)
        }
        if receiptEnvironment == .production && endpoint == .sandbox {
            return VerifyReceiptResponse(status: .productionReceiptSentToSandbox)
        }
        if let secret = configuration.sharedSecret, let password = request.password, password != secret {
            return VerifyReceiptResponse(status: .sharedSecretMismatch, environment: receiptEnvironment)
        }
        let inApp = receipt.inAppPurchases.map(\.verifyReceiptInApp)
        let subscriptions = inApp.filter { $0.expiresDateValue != nil }
        return VerifyReceiptResponse(
            status: .valid,
            environment: receiptEnvironment,
            receipt: VerifyReceiptResponse.Receipt(
                receiptType: receipt.receiptType,
                adamId: configuration.appAppleId,
                appItemId: configuration.appAppleId,
                bundleId: receipt.bundleId,
                applicationVersion: receipt.appVersion,
                downloadId: 0,
                versionExternalIdentifier: 0,
                receiptCreationDateValue: receipt.creationDate,
                requestDateValue: Date(),
                originalPurchaseDateValue: receipt.originalPurchaseDate ?? receipt.creationDate,
                originalApplicationVersion: receipt.originalAppVersion,
                inApp: inApp
            ),
            latestReceiptInfo: subscriptions.isEmpty ? nil : subscriptions,
            latestReceipt: subscriptions.isEmpty ? nil : receiptData,
            pendingRenewalInfo: subscriptions.isEmpty ? nil : pendingRenewalInfo(of: subscriptions)
        )
    }

    /// `pending_renewal_info`: one element per subscription chain the receipt's purchases
    /// belong to, in the order they first appear, as the chain's renewal information says now.
    private func pendingRenewalInfo(of subscriptions: [VerifyReceiptResponse.InApp])
        -> [VerifyReceiptResponse.PendingRenewalInfo]
    {
        var seen: Set<String> = []
        let now = Date()
        return subscriptions.compactMap { item in
            guard let original = item.originalTransactionId, seen.insert(original).inserted,
                let chain = state.subscriptions[original], let latest = state.transactions[chain.latestTransactionId]
            else { return nil }
            let renewalPrice = catalog.product(chain.autoRenewProductId)?.price ?? latest.price
            let info = chain.renewalInfo(latest: latest, renewalPrice: renewalPrice, signedAt: now)
            return VerifyReceiptResponse.PendingRenewalInfo(
                autoRenewProductId: info.autoRenewProductId,
                autoRenewStatus: info.autoRenewStatus.map { StringNumber($0.rawValue) },
                expirationIntent: info.expirationIntent.map { StringNumber($0.rawValue) },
                isInBillingRetryPeriod: info.isInBillingRetryPeriod.map { StringNumber($0 ? 1 : 0) },
                originalTransactionId: original,
                productId: info.productId,
                gracePeriodExpiresDateValue: info.gracePeriodExpiresDate.map {
                    Date(timeIntervalSince1970: Double($0) / 1000)
                })
        }
    }

    /// An injected verifyReceipt failure: a status Apple marks retryable.
    func injectedVerifyReceiptFailure() -> VerifyReceiptResponse {
        let status = faultInjector.pick([
            VerifyReceiptStatus.serverUnavailable, .internalDataAccessError, VerifyReceiptStatus(rawValue: 21_100),
            VerifyReceiptStatus(rawValue: 21_199),
        ])
        return VerifyReceiptResponse(status: status, isRetryable: true)
    }

    /// Decides whether `operation` fails now, after waiting out any injected latency.
    func injectFault(_ operation: String, group: String? = nil) async -> FaultDecision {
        let (latency, decision) = faultInjector.decide(operation, group: group, now: Date())
        if latency > .zero { try? await Task.sleep(for: latency) }
        return decision
    }
}

extension InAppPurchase {
    /// The purchase as verifyReceipt lists it under `in_app`.
    var verifyReceiptInApp: VerifyReceiptResponse.InApp {
        VerifyReceiptResponse.InApp(
            quantity: StringNumber(quantity),
            productId: productId,
            transactionId: transactionId,
            originalTransactionId: originalTransactionId,
            purchaseDateValue: purchaseDate,
            originalPurchaseDateValue: originalPurchaseDate ?? purchaseDate,
            expiresDateValue: subscriptionExpirationDate,
            webOrderLineItemId: webOrderLineItemId.map(String.init),
            isTrialPeriod: subscriptionExpirationDate == nil ? nil : StringBool(isTrialPeriod ?? false),
            isInIntroOfferPeriod: subscriptionExpirationDate == nil ? nil : StringBool(isInIntroOfferPeriod ?? false),
            cancellationDateValue: cancellationDate,
            cancellationReason: cancellationDate == nil ? nil : 0,
            inAppOwnershipType: .purchased
        )
    }
}
