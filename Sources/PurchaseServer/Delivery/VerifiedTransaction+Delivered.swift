import Ledger

extension VerifiedTransaction {
    /// The transaction as the ledger delivered it, for a receipt report the receipt can no
    /// longer vouch for: the server finished the transaction at Apple
    /// (``TransactionFinisher``), and a finished consumable leaves the app receipt. What the
    /// ledger recorded came from verified signed data when it was delivered.
    init(delivered purchase: Purchase) {
        store = purchase.store
        transactionId = purchase.transactionId
        originalTransactionId = purchase.originalTransactionId
        productId = purchase.productId
        quantity = purchase.quantity
        appAccountToken = nil
        environment = purchase.environment
        purchaseDate = purchase.purchaseDate
        revocationDate = nil
        signedDate = purchase.purchaseDate
    }
}
