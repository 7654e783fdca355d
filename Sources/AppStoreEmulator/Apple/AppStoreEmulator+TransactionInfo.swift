import AppStoreModel

/// Get Transaction Info, and how the operations that take a transaction id find it.
extension AppStoreEmulator {
    /// Get Transaction Info: the transaction, signed now.
    ///
    /// - Throws: ``APIError`` 404 with 4040010 when `environment` has no such transaction.
    public func transactionInfo(_ transactionId: String, environment: AppStoreEnvironment) throws
        -> TransactionInfoResponse
    {
        let transaction = try visibleTransaction(transactionId, environment: environment)
        return TransactionInfoResponse(signedTransactionInfo: try signedTransaction(transaction))
    }

    /// The transaction with this id in `environment`: an original transaction id is the id
    /// of the purchase's first transaction, so it names that one.
    ///
    /// - Throws: ``APIError`` 404 with 4040010 otherwise.
    func visibleTransaction(_ transactionId: String, environment: AppStoreEnvironment) throws(APIError)
        -> EmulatedTransaction
    {
        guard let transaction = state.transactions[transactionId], transaction.environment == environment else {
            throw .transactionNotFound(transactionId)
        }
        return transaction
    }

    /// Refuses an app transaction id where Apple takes only a transaction id (Send
    /// Consumption Information, Set App Account Token, Finish Transaction).
    ///
    /// - Throws: ``APIError`` 400 with 4000048 when `id` is the app transaction id of a
    ///   customer of `environment`.
    func refuseAppTransactionId(_ id: String, environment: AppStoreEnvironment) throws(APIError) {
        guard state.transactions[id] == nil, state.appTransactions[id]?.environment == environment else { return }
        throw APIError(
            status: 400, code: .appTransactionIdNotSupported, "\(id) is an app transaction id, not a transaction id")
    }
}
