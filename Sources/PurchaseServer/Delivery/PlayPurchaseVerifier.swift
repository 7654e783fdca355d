import AppStoreModel
import AppStoreVerification
import Foundation
import GooglePlayAPI
import Ledger
import PlayModel

/// Turns a Google Play report into a ``VerifiedTransaction`` by asking the Play Developer
/// API (`purchases.products.get`): the report itself proves nothing, Google's answer is the
/// only evidence. Refuses, with a stable reason, a token Google does not know, another
/// product's token, an order id Google does not give, a canceled purchase; answers a
/// pending purchase `pending` (delivered when it completes and is reported again).
struct PlayPurchaseVerifier: Sendable {
    let client: GooglePlayDeveloperAPIClient
    let allowedEnvironments: Set<AppStoreEnvironment>

    /// Google's word on `report`, read where Google keeps the product's kind: a
    /// subscription of `catalog` from `purchases.subscriptionsv2`
    /// (``subscriptionTransaction(_:)``), anything else from `purchases.products`.
    func transaction(_ report: GooglePlayReport, catalog: ProductCatalog) async throws(DeliveryRefusal)
        -> VerifiedTransaction
    {
        if catalog.product(report.productId)?.type == .autoRenewable {
            return try await subscriptionTransaction(report)
        }
        return try await transaction(report)
    }

    /// Google's word on `report`, as a transaction: Google's order id (the purchase token
    /// when Google gives none) as its id, the token as its chain, `obfuscatedExternalAccountId`
    /// as its order binding.
    func transaction(_ report: GooglePlayReport) async throws(DeliveryRefusal) -> VerifiedTransaction {
        let purchase: ProductPurchase
        do {
            purchase = try await client.productPurchase(productId: report.productId, token: report.purchaseToken)
        } catch {
            throw Self.refusal(error, orderId: report.orderId)
        }
        return try Self.transaction(purchase, report: report, allowedEnvironments: allowedEnvironments)
    }

    /// The transaction Google's `purchase` describes, checked against `report`: a plain
    /// function of Google's answer, tested without a network.
    static func transaction(
        _ purchase: ProductPurchase, report: GooglePlayReport, allowedEnvironments: Set<AppStoreEnvironment>
    ) throws(DeliveryRefusal) -> VerifiedTransaction {
        let transactionId = purchase.orderId ?? report.purchaseToken
        let shownId = purchase.orderId ?? report.orderId
        if let productId = purchase.productId, productId != report.productId {
            throw .rejected(
                "purchase_token_product_mismatch", "Google says the purchase token is for another product",
                transactionId: shownId)
        }
        if let reported = report.orderId, reported != purchase.orderId {
            throw .rejected(
                "play_order_id_mismatch", "Google gives this purchase token another order id than \(reported)",
                transactionId: shownId)
        }
        switch purchase.purchaseState {
        case PurchaseState.purchased?:
            break
        case PurchaseState.pending?:
            throw .pending(
                "purchase_pending",
                "the Google Play purchase is pending (not paid yet); report it again once it completes",
                transactionId: shownId)
        case PurchaseState.canceled?:
            throw .rejected("purchase_cancelled", "Google Play canceled this purchase", transactionId: shownId)
        default:
            throw .rejected(
                "malformed_payload", "Google's ProductPurchase has no known purchaseState", transactionId: shownId)
        }
        guard let purchaseDate = purchase.purchaseTime else {
            throw .rejected(
                "malformed_payload", "Google's ProductPurchase has no purchaseTimeMillis", transactionId: shownId)
        }
        let quantity = purchase.quantity ?? 1
        // purchaseType 0 is a license tester's test purchase: Play's sandbox.
        let environment: AppStoreEnvironment = purchase.purchaseType == 0 ? .sandbox : .production
        guard allowedEnvironments.contains(environment) else {
            throw .rejected(
                VerificationError.Code.environmentMismatch.rawValue,
                "a \(environment.rawValue) Google Play purchase is not accepted here", transactionId: shownId)
        }
        return VerifiedTransaction(
            store: .googlePlay, transactionId: transactionId, originalTransactionId: report.purchaseToken,
            productId: report.productId, quantity: quantity,
            appAccountToken: purchase.obfuscatedExternalAccountId?.lowercased(),
            environment: PurchaseEnvironment(apple: environment), purchaseDate: purchaseDate,
            signedDate: purchaseDate)
    }

    /// The refusal for a failed `purchases.products.get`: Google's refusals of the token
    /// are permanent; anything that may pass, or that is the server's own configuration
    /// (its credentials, its package name), is `pending` (503) so the report can come again.
    static func refusal(_ error: GooglePlayAPIError, orderId: String?) -> DeliveryRefusal {
        func unavailable(_ reason: String, _ message: String) -> DeliveryRefusal {
            DeliveryRefusal(
                kind: .pending, reason: reason, message: message, status: .serviceUnavailable, transactionId: orderId,
                orderId: nil)
        }
        if error.isRetryable || error.kind == .authorizationFailed || error.kind == .invalidRequest
            || error.httpStatus == 401 || error.httpStatus == 403
        {
            return unavailable("play_unavailable", "the Play Developer API failed: \(error.kind.rawValue)")
        }
        if error.reason == "applicationNotFound" {
            return unavailable(
                "play_application_not_found", "Google knows no app with the server's configured package name")
        }
        if error.isNotFound {
            return .rejected(
                "purchase_token_not_found", "Google knows no such purchase token", transactionId: orderId)
        }
        if error.reason == "purchaseTokenDoesNotMatchProductId" {
            return .rejected(
                "purchase_token_product_mismatch", "Google says the purchase token is for another product",
                transactionId: orderId)
        }
        return .rejected(
            "play_rejected_purchase",
            "the Play Developer API refused the purchase: \(error.reason ?? error.kind.rawValue)",
            transactionId: orderId)
    }
}
