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
/// player's report (`awaiting_report`). A voided purchase, in whole or by quantity, is
/// settled by ``PlayVoidSettler``. Pub/Sub
/// delivers at least once, in any order: every action is idempotent, and an answer other
/// than 2xx (Google unavailable, the ledger failed) makes Pub/Sub push it again.
struct PlayNotificationIntake: Sendable {
    let authenticator: GooglePushAuthenticator?
    let packageName: String
    let verifier: PlayPurchaseVerifier
    let acknowledger: PlayAcknowledger
    let deliverer: PurchaseDeliverer
    let voids: PlayVoidSettler
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
        if let subscription = notification.subscriptionNotification {
            return try await subscriptionChanged(subscription, eventTimeMillis: notification.eventTimeMillis)
        }
        if let voided = notification.voidedPurchaseNotification {
            return try await voidedPurchase(voided, eventTimeMillis: notification.eventTimeMillis)
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
            return try await notDelivered(transaction, refusal)
        }
    }

    /// A purchase the deliverer refused: one bound to no order waits for the player's
    /// report (`awaiting_report`); any other refusal is recorded there.
    private func notDelivered(_ transaction: VerifiedTransaction, _ refusal: DeliveryRefusal) async throws -> Outcome {
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

    /// A subscription changed (any `subscriptionNotification` type): the subscription is read
    /// from `purchases.subscriptionsv2`, its latest order delivered once (a purchase, a
    /// renewal) and acknowledged, and the chain's entitlement brought to Google's state
    /// (``SubscriptionEvidence/init(googlePlay:expiresDate:notificationType:signedAt:)``).
    private func subscriptionChanged(_ notification: SubscriptionNotification, eventTimeMillis: String) async throws
        -> Outcome
    {
        try RequestField.identifier(notification.subscriptionId, .productId, field: "subscriptionId")
        try RequestField.identifier(notification.purchaseToken, .purchaseToken)
        let report = GooglePlayReport(
            productId: notification.subscriptionId, purchaseToken: notification.purchaseToken, orderId: nil)
        let subscription: SubscriptionPurchaseV2
        let transaction: VerifiedTransaction
        do {
            do {
                subscription = try await verifier.client.subscriptionPurchaseV2(token: notification.purchaseToken)
            } catch {
                throw PlayPurchaseVerifier.refusal(error, orderId: nil)
            }
            transaction = try PlayPurchaseVerifier.transaction(
                subscription, report: report, allowedEnvironments: verifier.allowedEnvironments)
        } catch {
            return try await refused(error)
        }
        let signedAt = Int64(eventTimeMillis).map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date()
        let evidence = SubscriptionEvidence(
            googlePlay: subscription, expiresDate: transaction.expiresDate ?? signedAt,
            notificationType: notification.notificationType, signedAt: signedAt)
        do {
            let result = try await deliverer.deliver(
                transaction, source: .notification, claimant: .appStore, evidence: evidence)
            try await acknowledger.settle(result.purchase, source: .notification)
            if !result.isFirstDelivery, let standing = evidence.storeStanding {
                // Delivered before (reported, or an earlier notification): Google's state still counts.
                _ = try await store.updateEntitlement(EntitlementUpdate(standing, of: transaction, evidence: evidence))
            }
            return .processed
        } catch let refusal as DeliveryRefusal {
            return try await notDelivered(transaction, refusal)
        }
    }

    /// A refusal of Google's answer: retried while Google fails, recorded when final.
    private func refused(_ error: any Error) async throws -> Outcome {
        guard let refusal = error as? DeliveryRefusal else { throw error }
        return try await refused(refusal)
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

    private func voidedPurchase(_ notification: VoidedPurchaseNotification, eventTimeMillis: String) async throws
        -> Outcome
    {
        switch try await voids.settle(PlayVoidSettler.Void(notification, eventTimeMillis: eventTimeMillis)) {
        case .settled: return .processed
        case .unknownPurchase, .notActedOn: return .ignored
        }
    }
}
