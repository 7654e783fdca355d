import AppStoreModel
import AppStoreVerification
import Foundation
import Ledger
import Logging

/// Takes App Store Server Notifications V2, from Apple's POSTs and from the reconciler's
/// reading of notification history, through one path: verify the signature, record the
/// notification durably (idempotent on `notificationUUID`), then act on it.
///
/// A notification recorded but not processed (the server stopped in between, or the
/// database failed) is processed again when Apple retries or the reconciler finds it: every
/// action is idempotent.
struct NotificationIntake: Sendable {
    let store: any LedgerStore
    let verifier: JWSVerifier
    let deliverer: PurchaseDeliverer
    let consumption: ConsumptionResponder?
    let metrics: ServerMetrics
    let logger: Logger

    /// What the intake did with a notification.
    enum Outcome: String, Codable, Sendable {
        /// Recorded and acted on now.
        case processed
        /// Seen and processed before; nothing changed.
        case duplicate
    }

    /// Verifies, records and processes one signed notification.
    ///
    /// - Throws: ``ServerError`` `422` with the verification code for data that does not
    ///   verify; `503` `verification_unavailable` when its verification could not be
    ///   completed now (the revocation check), so Apple (or the reconciler) tries again
    ///   and the notification stays unprocessed; the ledger's error when the database failed (answer 5xx: Apple retries).
    ///
    /// - Parameter claim: what the payload claims, unverified, read by the reconciler (see
    ///   below); ignored for any other source.
    func receive(
        signedPayload: String, source: DeliverySource, claim: UnverifiedNotificationClaim? = nil
    ) async throws -> Outcome {
        // The reconciler reads every notification of its hour of overlap again on each pass
        // (thousands), and verifying one costs up to three signature and chain checks. One it
        // has processed before needs nothing, so it is recognized by the UUID it names, one
        // indexed read, unverified: skipping changes nothing whatever the payload claims,
        // and a payload naming any other UUID is verified below. Apple's own POSTs are
        // verified first, so that a forged one is always refused.
        if source == .reconciler, let claim,
            let seen = try await store.notification(uuid: claim.notificationUUID), seen.store == .appStore,
            seen.processedAt != nil
        {
            metrics.recordNotification(type: seen.type, duplicate: true)
            return .duplicate
        }
        let verified: VerifiedNotification
        do {
            verified = try await verifier.verifyNotification(signedPayload)
        } catch {
            let refusal = DeliveryRefusal.verificationFailed(error)
            metrics.recordRefusal(refusal)
            throw ServerError(
                refusal.reason, error.message, status: refusal.status,
                retryAfterSeconds: error.isRetryable ? DeliveryRefusal.verificationRetryAfterSeconds : nil)
        }
        let notification = verified.notification
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            throw ServerError(
                "malformed_payload", "the notification has no notificationUUID", status: .unprocessableContent)
        }
        let type = notification.notificationType?.rawValue ?? "UNKNOWN"
        // One indexed read for a notification processed before: the reconciler finds every
        // notification of its overlap again on each pass, and this keeps those off the
        // ledger's writer (a processed notification stays processed).
        if try await store.notification(uuid: uuid)?.processedAt != nil {
            metrics.recordNotification(type: type, duplicate: true)
            return .duplicate
        }
        let isNew = try await store.recordNotification(
            store: .appStore,
            notificationUUID: uuid, type: type, subtype: notification.subtype?.rawValue,
            transactionId: verified.transaction?.transactionId,
            signedDate: notification.signedDate.map { Date(timeIntervalSince1970: Double($0) / 1000) },
            refund: RefundNotice(
                apple: notification.notificationType, revokedShare: verified.transaction?.revokedShare),
            receivedAt: Date())
        if !isNew, try await store.notification(uuid: uuid)?.processedAt != nil {
            metrics.recordNotification(type: type, duplicate: true)
            return .duplicate
        }
        metrics.recordNotification(type: type, duplicate: false)
        try await process(verified, source: source)
        try await store.markNotificationProcessed(uuid)
        return .processed
    }

    private func process(_ verified: VerifiedNotification, source: DeliverySource) async throws {
        let notificationUUID = verified.notification.notificationUUID ?? ""
        if verified.notification.notificationType == .rescindConsent {
            try await rescindConsent(verified.notification, notificationUUID: notificationUUID)
            return
        }
        guard let type = verified.notification.notificationType, let payload = verified.transaction,
            let transaction = VerifiedTransaction(payload)
        else {
            try await recordNotActedOn(
                verified, reason: "no_transaction", message: "the notification carries no signed transaction to act on")
            return
        }
        let evidence = SubscriptionEvidence(
            renewalInfo: verified.renewalInfo, signedAt: verified.notification.signedDateValue,
            reason: [type.rawValue, verified.notification.subtype?.rawValue].compactMap { $0 }.joined(separator: "/"))
        switch type {
        case .oneTimeCharge, .subscribed, .didRenew:
            // DID_RENEW includes BILLING_RECOVERY, the recovery from billing retry.
            try await deliver(transaction, source: source, evidence: evidence)
        case .didChangeRenewalPref where verified.notification.subtype == .upgrade:
            // The upgrade's new transaction replaces the old one at once, in the same chain.
            try await deliver(transaction, source: source, evidence: evidence)
        case .didChangeRenewalPref, .didChangeRenewalStatus, .didFailToRenew, .gracePeriodExpired, .expired:
            try await updateSubscription(
                transaction, type: type, subtype: verified.notification.subtype, evidence: evidence, source: source)
        case .refund, .revoke:
            // Settles to Apple's latest recorded word (the share refunded so far), which may
            // be a later-signed REFUND_REVERSED that arrived first: then this notice changes
            // nothing.
            let reason = payload.revocationReason.map { "revocation reason \($0.rawValue)" } ?? type.rawValue
            switch try await store.settleRefundState(
                store: transaction.store, transactionId: transaction.transactionId, reason: reason)
            {
            case .reversed(let purchase, let posting) where posting.hasNegativeBalance:
                logger.notice(
                    "refund left a negative balance",
                    metadata: [
                        "transactionId": .string(purchase.transactionId), "playerId": .string(purchase.playerId),
                    ])
            case .unknownTransaction where transaction.revocationDate == nil:
                // Refunded in part before any delivery: the player keeps the rest. The
                // ledger delivers it and takes the refunded share back in one database
                // transaction (or refuses it, if Apple's latest word refunds all of it).
                try await deliver(transaction, source: source, evidence: evidence)
            default:
                break
            }
            try await revokeEntitlement(transaction, state: type == .refund ? .refunded : .revoked, evidence: evidence)
        case .refundReversed:
            // A reversal of a refund that came before any delivery delivers the transaction
            // (the ledger refuses it if a later-signed refund is recorded).
            if case .unknownTransaction = try await store.settleRefundState(
                store: transaction.store, transactionId: transaction.transactionId, reason: type.rawValue)
            {
                try await deliver(transaction, source: source, evidence: evidence)
            }
            try await reinstateEntitlement(transaction, evidence: evidence)
        case .consumptionRequest:
            try await answerConsumptionRequest(payload, transaction: transaction, notificationUUID: notificationUUID)
        default:
            try await recordNotActedOn(
                verified, reason: "not_acted_on", message: "the server records \(type.rawValue) and does not act on it")
        }
    }

    /// Delivers through the shared path, then finishes the transaction at Apple when the
    /// server owes it (a failure that may pass throws, leaving the notification unprocessed
    /// for Apple's retry and the reconciler); refusals are recorded there and end
    /// processing (Apple sending the notification again would not change them).
    private func deliver(
        _ transaction: VerifiedTransaction, source: DeliverySource, evidence: SubscriptionEvidence
    ) async throws {
        do {
            let result = try await deliverer.deliver(
                transaction, source: source, claimant: .appStore, evidence: evidence)
            if !result.isFirstDelivery {
                // Delivered before (the app reported it first): the renewal info still counts.
                try await updateSubscription(transaction, type: nil, evidence: evidence, source: source)
            }
            try await deliverer.finishAtApple(result.purchase, deliveredBy: source)
        } catch let refusal as DeliveryRefusal {
            guard refusal.kind == .pending else { return }
            try await store.appendEvent(
                HistoryEvent(
                    type: .awaitingReport, transactionId: transaction.transactionId, store: transaction.store,
                    detail: OwedTransaction.detail(
                        reason: refusal.reason, productId: transaction.productId, source: source.rawValue,
                        price: transaction.price, currency: transaction.currency,
                        purchaseDate: transaction.purchaseDate, appAccountToken: transaction.appAccountToken),
                    createdAt: Date()))
        }
    }
}
