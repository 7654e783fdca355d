import AppStoreModel
import AppStoreVerification
import Foundation
import GooglePlayAPI
import Ledger
import PlayModel

extension PlayPurchaseVerifier {
    /// Google's word on a reported subscription (`purchases.subscriptionsv2.get`), as the
    /// transaction of its latest order: Google's `latestOrderId` as its id, the purchase
    /// token as its chain, the line item's `expiryTime` as the period's end,
    /// `externalAccountIdentifiers.obfuscatedExternalAccountId` as its order binding,
    /// `linkedPurchaseToken` as the chain it replaces.
    func subscriptionTransaction(_ report: GooglePlayReport) async throws(DeliveryRefusal) -> VerifiedTransaction {
        let subscription: SubscriptionPurchaseV2
        do {
            subscription = try await client.subscriptionPurchaseV2(token: report.purchaseToken)
        } catch {
            throw Self.refusal(error, orderId: report.orderId)
        }
        return try Self.transaction(subscription, report: report, allowedEnvironments: allowedEnvironments)
    }

    /// The transaction Google's `subscription` describes, checked against `report`: a plain
    /// function of Google's answer, tested without a network. The device reports the order
    /// id it bought (`GPA.…`); after renewals Google's latest is that id with `..N` added,
    /// which the report may name too.
    static func transaction(
        _ subscription: SubscriptionPurchaseV2, report: GooglePlayReport, allowedEnvironments: Set<AppStoreEnvironment>
    ) throws(DeliveryRefusal) -> VerifiedTransaction {
        let shownId = subscription.latestOrderId ?? report.orderId
        guard let item = subscription.lineItems.first(where: { $0.productId == report.productId }) else {
            throw .rejected(
                "purchase_token_product_mismatch", "Google says the purchase token is for another product",
                transactionId: shownId)
        }
        guard let orderId = subscription.latestOrderId ?? item.latestSuccessfulOrderId else {
            throw .rejected(
                "malformed_payload", "Google's SubscriptionPurchaseV2 has no latestOrderId", transactionId: nil)
        }
        if let reported = report.orderId, reported != orderId, !orderId.hasPrefix(reported + "..") {
            throw .rejected(
                "play_order_id_mismatch", "Google gives this purchase token another order id than \(reported)",
                transactionId: orderId)
        }
        if subscription.subscriptionState == SubscriptionState.pending {
            throw .pending(
                "purchase_pending",
                "the Google Play subscription is pending (not paid yet); report it again once it completes",
                transactionId: orderId)
        }
        guard let expiresDate = item.expiryDate, let startDate = subscription.startDate else {
            throw .rejected(
                "malformed_payload", "Google's SubscriptionPurchaseV2 has no RFC 3339 startTime or expiryTime",
                transactionId: orderId)
        }
        // A license tester's purchase carries testPurchase: Play's sandbox.
        let environment: AppStoreEnvironment = subscription.testPurchase != nil ? .sandbox : .production
        guard allowedEnvironments.contains(environment) else {
            throw .rejected(
                VerificationError.Code.environmentMismatch.rawValue,
                "a \(environment.rawValue) Google Play purchase is not accepted here", transactionId: orderId)
        }
        return VerifiedTransaction(
            store: .googlePlay, transactionId: orderId, originalTransactionId: report.purchaseToken,
            productId: report.productId, quantity: 1,
            appAccountToken: subscription.externalAccountIdentifiers?.obfuscatedExternalAccountId?.lowercased(),
            environment: PurchaseEnvironment(apple: environment), purchaseDate: startDate,
            originalPurchaseDate: startDate, expiresDate: expiresDate, signedDate: startDate,
            linkedOriginalTransactionId: subscription.linkedPurchaseToken.flatMap {
                $0.isEmpty || $0 == report.purchaseToken ? nil : $0
            })
    }
}
