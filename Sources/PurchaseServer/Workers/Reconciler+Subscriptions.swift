import AppStoreAPI
import AppStoreModel
import AppStoreVerification
import Foundation
import Ledger

extension Reconciler {
    /// How many lapsed subscriptions one pass checks at most (oldest first; the rest wait
    /// for the next pass).
    static let subscriptionsPerPass = 100

    /// Brings subscriptions whose entitlement still entitles past its end in line with Get
    /// All Subscription Statuses: the notification that renewed, expired or recovered them
    /// may have been lost for good. For each customer, every latest transaction Apple lists
    /// that was never delivered is delivered (to the chain's holder), and the status and
    /// renewal info are applied (reason `reconciler`). A chain Apple fails to answer for is
    /// counted in ``Report/subscriptionFailures``; one still lapsed after its check (Apple
    /// failed, or answered without settling it) is postponed
    /// (``EntitlementStore/postponeSubscriptionCheck(store:originalTransactionId:now:)``), so it
    /// cannot keep the chains behind it from being checked.
    func reconcileSubscriptions(
        client: AppStoreServerAPIClient, now: Date, lease: inout Lease, report: inout Report
    ) async throws {
        let lapsed = try await store.lapsedSubscriptions(before: now, limit: Self.subscriptionsPerPass)
        var seen: Set<String> = []
        for entitlement in lapsed where !seen.contains(entitlement.originalTransactionId) {
            report.subscriptionsChecked += 1
            do {
                let statuses = try await client.getAllSubscriptionStatuses(
                    transactionId: entitlement.originalTransactionId)
                for item in (statuses.data ?? []).flatMap({ $0.lastTransactions ?? [] }) {
                    if let original = item.originalTransactionId { seen.insert(original) }
                    if try await bringInLine(item) { report.subscriptionsUpdated += 1 }
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch is AppStoreServerAPIError {
                report.subscriptionFailures += 1
            } catch is VerificationError {
                report.subscriptionFailures += 1
            } catch let error as ServerError where error.code == "apple_unavailable" {
                // Finish Transaction failed for a while; the finisher recorded it.
                report.subscriptionFailures += 1
            }
            seen.insert(entitlement.originalTransactionId)
            if let after = try await store.entitlement(
                store: entitlement.store, originalTransactionId: entitlement.originalTransactionId),
                after.state.entitles, let until = after.until, until < now
            {
                if try await store.postponeSubscriptionCheck(
                    store: after.store, originalTransactionId: after.originalTransactionId, now: now)
                    != nil
                {
                    report.subscriptionsPostponed += 1
                }
            }
            lease = try await store.acquireLease(Self.leaseName, holder: holder, duration: Self.leaseDuration)
            guard lease.holder == holder else { throw ReconcilerLeaseError.lost }
        }
    }

    /// Delivers `item`'s transaction if it never was (a refusal is recorded, not fatal),
    /// then applies its status; whether the entitlement changed.
    private func bringInLine(_ item: LastTransactionsItem) async throws -> Bool {
        guard let signed = item.signedTransactionInfo,
            let transaction = VerifiedTransaction(try await intake.verifier.verifyTransaction(signed))
        else { return false }
        var renewalInfo: JWSRenewalInfoDecodedPayload?
        if let signedRenewalInfo = item.signedRenewalInfo {
            renewalInfo = try await intake.verifier.verifyRenewalInfo(signedRenewalInfo)
        }
        let evidence = SubscriptionEvidence(renewalInfo: renewalInfo, status: item.status, reason: "reconciler")
        var changed = false
        if try await store.purchase(store: transaction.store, transactionId: transaction.transactionId) == nil {
            do {
                let result = try await intake.deliverer.deliver(
                    transaction, source: .reconciler, claimant: .appStore, evidence: evidence)
                changed = result.isFirstDelivery
                try await intake.deliverer.finishAtApple(result.purchase, deliveredBy: .reconciler)
            } catch is DeliveryRefusal {
                // Refused (refunded or revoked, or claimed by no one yet): Apple's status
                // still stands, and is applied below, so the chain leaves the lapsed list.
            }
        }
        let standing = evidence.standing(expiresDate: transaction.expiresDate, ownership: transaction.ownership)
        let update = EntitlementUpdate(
            store: .appStore,
            originalTransactionId: transaction.originalTransactionId, transactionId: transaction.transactionId,
            productId: transaction.productId, state: standing.state, until: standing.until, setsUntil: true,
            autoRenew: standing.autoRenew, autoRenewProductId: standing.autoRenewProductId,
            signedAt: evidence.signedAt(for: transaction), reason: evidence.reason)
        if case .changed = try await store.updateEntitlement(update) { changed = true }
        return changed
    }
}
