import AppStoreModel
import Foundation
import Ledger

extension NotificationIntake {
    /// Brings a subscription's entitlement in line with a notification that carries no new
    /// period (`DID_CHANGE_RENEWAL_PREF` downgrade, `DID_CHANGE_RENEWAL_STATUS`,
    /// `DID_FAIL_TO_RENEW`, `GRACE_PERIOD_EXPIRED`, `EXPIRED`), or with the renewal info of
    /// a transaction delivered before (`type` `nil`). The transaction named is delivered
    /// first when it never was (its `DID_RENEW` was lost). Nothing happens for a chain no
    /// player holds, or an older notification than the entitlement's data.
    func updateSubscription(
        _ transaction: VerifiedTransaction, type: NotificationType?, subtype: NotificationSubtype? = nil,
        evidence: SubscriptionEvidence, source: DeliverySource
    ) async throws {
        guard
            let entitlement = try await store.entitlement(
                store: transaction.store, originalTransactionId: transaction.originalTransactionId),
            entitlement.productType == .autoRenewable
        else { return }
        if transaction.transactionId != entitlement.transactionId,
            try await store.purchase(store: transaction.store, transactionId: transaction.transactionId) == nil
        {
            do {
                _ = try await deliverer.deliver(
                    transaction, source: source, claimant: .appStore, evidence: evidence)
            } catch is DeliveryRefusal {
                return
            }
        }
        var standing = evidence.standing(expiresDate: transaction.expiresDate, ownership: transaction.ownership)
        switch type {
        case .didFailToRenew?:
            let grace = evidence.renewalInfo?.gracePeriodExpiresDateValue
            if subtype == .gracePeriod, let grace {
                standing.state = .gracePeriod
                standing.until = grace
            } else {
                standing.state = .billingRetry
                standing.until = transaction.expiresDate
            }
        case .gracePeriodExpired?:
            standing.state = .billingRetry
            standing.until = transaction.expiresDate
        case .expired?:
            standing.state = .expired
            standing.until = transaction.expiresDate
        default:
            break
        }
        try await apply(standing, to: transaction, evidence: evidence)
    }

    /// Marks the entitlement `state` (refunded or revoked) when Apple took back all of the
    /// transaction that backs it now; a refund of an earlier period, or of a share, leaves it.
    func revokeEntitlement(
        _ transaction: VerifiedTransaction, state: EntitlementState, evidence: SubscriptionEvidence
    ) async throws {
        guard transaction.revocationDate != nil,
            let entitlement = try await store.entitlement(
                store: transaction.store, originalTransactionId: transaction.originalTransactionId),
            entitlement.transactionId == transaction.transactionId
        else { return }
        // Naming the transaction lets the ledger drop it if a later period committed since.
        let update = EntitlementUpdate(
            store: transaction.store,
            originalTransactionId: entitlement.originalTransactionId, transactionId: transaction.transactionId,
            state: state, signedAt: evidence.signedAt(for: transaction), reason: evidence.reason)
        _ = try await store.updateEntitlement(update)
    }

    /// Gives back an entitlement Apple's reversed refund restores: active while its period
    /// (if any) lasts, expired after.
    func reinstateEntitlement(_ transaction: VerifiedTransaction, evidence: SubscriptionEvidence) async throws {
        guard transaction.revocationDate == nil,
            let entitlement = try await store.entitlement(
                store: transaction.store, originalTransactionId: transaction.originalTransactionId),
            entitlement.transactionId == transaction.transactionId,
            entitlement.state == .refunded || entitlement.state == .revoked
        else { return }
        let ends = transaction.expiresDate ?? entitlement.until
        let update = EntitlementUpdate(
            store: transaction.store,
            originalTransactionId: entitlement.originalTransactionId, transactionId: transaction.transactionId,
            state: ends.map { $0 > Date() } ?? true ? .active : .expired,
            until: transaction.expiresDate, setsUntil: transaction.expiresDate != nil,
            signedAt: evidence.signedAt(for: transaction), reason: evidence.reason)
        _ = try await store.updateEntitlement(update)
    }

    private func apply(
        _ standing: SubscriptionEvidence.Standing, to transaction: VerifiedTransaction,
        evidence: SubscriptionEvidence
    ) async throws {
        _ = try await store.updateEntitlement(EntitlementUpdate(standing, of: transaction, evidence: evidence))
    }
}
