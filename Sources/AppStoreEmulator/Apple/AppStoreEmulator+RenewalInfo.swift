import AppStoreModel
import Foundation

/// A subscription's status and signed renewal information (`signedRenewalInfo`).
extension AppStoreEmulator {
    /// The chain of an auto-renewable transaction: `pending` when it is that chain's
    /// version about to be committed, the state's otherwise; `nil` for any other product.
    func chain(of transaction: EmulatedTransaction, pending: EmulatedSubscription? = nil) -> EmulatedSubscription? {
        guard transaction.type == .autoRenewable else { return nil }
        if let pending, pending.originalTransactionId == transaction.originalTransactionId { return pending }
        return state.subscriptions[transaction.originalTransactionId] ?? EmulatedSubscription(first: transaction)
    }

    /// The chain's latest transaction: `transaction` when it is that one (possibly a
    /// version not committed yet), the state's otherwise.
    func latest(of chain: EmulatedSubscription, given transaction: EmulatedTransaction) -> EmulatedTransaction {
        transaction.transactionId == chain.latestTransactionId
            ? transaction : (state.transactions[chain.latestTransactionId] ?? transaction)
    }

    /// Apple's status of the subscription `transaction` belongs to, at `now`; `nil` for
    /// any other product.
    func subscriptionStatus(
        of transaction: EmulatedTransaction, pending: EmulatedSubscription? = nil, at now: Date
    ) -> SubscriptionStatus? {
        guard let chain = chain(of: transaction, pending: pending) else { return nil }
        return chain.status(
            latest: latest(of: chain, given: transaction), at: Int64(now.timeIntervalSince1970 * 1000))
    }

    /// The renewal information of the subscription `transaction` belongs to, signed at
    /// `now`; `nil` for any other product. The renewal price is the catalog's price now of
    /// the product it renews to (the last price charged when the catalog no longer sells it).
    func signedRenewalInfo(
        _ transaction: EmulatedTransaction, pending: EmulatedSubscription? = nil, at now: Date
    ) throws -> String? {
        guard let chain = chain(of: transaction, pending: pending) else { return nil }
        let latest = latest(of: chain, given: transaction)
        let renewalPrice = catalog.product(chain.autoRenewProductId)?.price ?? latest.price
        return try jwsSigner.sign(chain.renewalInfo(latest: latest, renewalPrice: renewalPrice, signedAt: now))
    }
}
