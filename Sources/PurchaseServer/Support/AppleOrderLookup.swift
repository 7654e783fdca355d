import AppStoreModel
import Ledger

/// What Apple's Look Up Order ID says of a customer's order (the order id on their e-mail
/// receipt), read-only: Apple's status and each transaction it lists, verified and decoded,
/// beside the purchase the ledger recorded for it, if any.
package struct AppleOrderLookup: Sendable, Hashable {
    /// One transaction of the order.
    package struct Transaction: Sendable, Hashable {
        /// Apple's signed transaction, decoded; `nil` when it did not verify.
        package var payload: JWSTransactionDecodedPayload?
        /// Why it did not verify (the verification code), when it did not.
        package var verificationFailure: String?
        /// The ledger's purchase of this transaction: who received it; `nil` while undelivered.
        package var purchase: Purchase?

        /// The transaction id, as Apple signed it.
        package var transactionId: String? { payload?.transactionId }
    }

    /// The order id looked up.
    package var appleOrderId: String
    /// Apple's status: ``OrderLookupStatus/valid`` (0) or ``OrderLookupStatus/invalid`` (1).
    package var status: OrderLookupStatus
    /// The order's transactions, in Apple's order.
    package var transactions: [Transaction]
}
