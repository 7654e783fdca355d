import Foundation
import Ledger

extension EntitlementUpdate {
    /// The update that brings `transaction`'s chain to `standing` (its state, end and
    /// renewal intent), dated and explained by `evidence`.
    init(
        _ standing: SubscriptionEvidence.Standing, of transaction: VerifiedTransaction, evidence: SubscriptionEvidence
    ) {
        self.init(
            store: transaction.store,
            originalTransactionId: transaction.originalTransactionId, transactionId: transaction.transactionId,
            productId: transaction.productId, state: standing.state, until: standing.until, setsUntil: true,
            autoRenew: standing.autoRenew, autoRenewProductId: standing.autoRenewProductId,
            signedAt: evidence.signedAt(for: transaction), reason: evidence.reason)
    }
}
