import Foundation
import Ledger
import Logging
import PlayModel

/// Takes Google Play's Real-time developer notifications, pushed by Cloud Pub/Sub: checks
/// the push's OIDC token (``GooglePushAuthenticator``), decodes the envelope and the
/// ``DeveloperNotification``, and acts on what it says changed, reading the purchase from
/// the Play Developer API (a notification proves nothing by itself).
///
/// A purchased one-time product is delivered through the same ``PurchaseDeliverer`` as a
/// report (source `notification`, bound by its `obfuscatedExternalAccountId`), then
/// consumed or acknowledged (``PlayAcknowledger``); one bound to no order waits for the
/// player's report (`awaiting_report`). A full refund (voided purchase) is reversed. Pub/Sub
/// delivers at least once, in any order: every action is idempotent, and an answer other
/// than 2xx (Google unavailable, the ledger failed) makes Pub/Sub push it again.
struct PlayNotificationIntake: Sendable {
    let authenticator: GooglePushAuthenticator?
    let packageName: String
    let verifier: PlayPurchaseVerifier
    let acknowledger: PlayAcknowledger
    let deliverer: PurchaseDeliverer
    let store: any LedgerStore
    let logger: Logger

    /// What the intake did with a push.
    enum Outcome: String, Codable, Sendable {
        /// Acted on (delivered, or reversed), or found done before.
        case processed
        /// Nothing to do yet: the purchase is pending, or bound to no order (it waits for
        /// the player's report).
        case waiting
        /// Nothing to do: a test notification, another app's, a cancellation, a kind this
        /// server does not act on.
        case ignored
    }

    /// Authenticates and processes one push.
    ///
    /// - Throws: ``ServerError``: 503 `not_configured` without `pushAudience` and
    ///   `pushEmail`; 401 for a token that fails a check; 400 `invalid_request` for a body
    ///   that is not a Pub/Sub push of a developer notification; 503 `play_unavailable`
    ///   while Google fails (Pub/Sub retries); the ledger's error.
    func receive(_ body: Data, authorization: String?) async throws -> Outcome {
        guard let authenticator else {
            throw ServerError.notConfigured("Google Play pushes (googlePlay.pushAudience and googlePlay.pushEmail)")
        }
        _ = try await authenticator.authenticate(authorization)
        guard let envelope = try? JSONDecoder().decode(PubSubPushEnvelope.self, from: body) else {
            throw ServerError.invalidRequest("the body is not a Pub/Sub push: {\"message\": {\"data\", …}, …}")
        }
        guard let data = Data(base64Encoded: envelope.message.data),
            let notification = try? JSONDecoder().decode(DeveloperNotification.self, from: data)
        else {
            throw ServerError.invalidRequest("message.data is not a base64 DeveloperNotification")
        }
        guard notification.packageName == packageName else {
            logger.notice("Google Play push for another package ignored")
            return .ignored
        }
        if let purchase = notification.oneTimeProductNotification {
            return try await oneTimeProduct(purchase)
        }
        if let voided = notification.voidedPurchaseNotification {
            return try await voidedPurchase(voided)
        }
        return .ignored
    }

    private func oneTimeProduct(_ notification: OneTimeProductNotification) async throws -> Outcome {
        guard notification.notificationType == OneTimeProductNotificationType.purchased else { return .ignored }
        try RequestField.identifier(notification.sku, .productId, field: "sku")
        try RequestField.identifier(notification.purchaseToken, .purchaseToken)
        let transaction: VerifiedTransaction
        do {
            transaction = try await verifier.transaction(
                GooglePlayReport(productId: notification.sku, purchaseToken: notification.purchaseToken))
        } catch {
            return try await refused(error)
        }
        do {
            let result = try await deliverer.deliver(transaction, source: .notification, claimant: .appStore)
            try await acknowledger.settle(result.purchase, source: .notification)
            return .processed
        } catch let refusal as DeliveryRefusal {
            guard refusal.kind == .pending else { return .ignored }
            try await store.appendEvent(
                HistoryEvent(
                    type: .awaitingReport, transactionId: transaction.transactionId, store: .googlePlay,
                    detail: OwedTransaction.detail(
                        reason: refusal.reason, productId: transaction.productId,
                        source: DeliverySource.notification.rawValue,
                        price: nil, currency: nil, purchaseDate: transaction.purchaseDate,
                        appAccountToken: transaction.appAccountToken),
                    createdAt: Date()))
            return .waiting
        }
    }

    /// A refusal of Google's answer: retried while Google fails, recorded when final.
    private func refused(_ refusal: DeliveryRefusal) async throws -> Outcome {
        if refusal.status == .serviceUnavailable {
            throw ServerError(refusal.reason, refusal.message, status: .serviceUnavailable)
        }
        guard refusal.kind == .rejected else { return .waiting }
        try await deliverer.record(refusal, playerId: nil, source: .notification, store: .googlePlay)
        return .ignored
    }

    private func voidedPurchase(_ notification: VoidedPurchaseNotification) async throws -> Outcome {
        guard notification.refundType == VoidedPurchaseRefundType.fullRefund else {
            // A quantity-based partial refund names no quantity here: voidedpurchases.list does.
            logger.notice("Google Play partial refund not acted on", metadata: ["orderId": "\(notification.orderId)"])
            return .ignored
        }
        try RequestField.identifier(notification.orderId, .transactionId, field: "orderId")
        switch try await store.reverse(
            store: .googlePlay, transactionId: notification.orderId, reason: "google_play_voided")
        {
        case .reversed, .alreadyReversed: return .processed
        case .unknownTransaction: return .ignored
        }
    }
}
