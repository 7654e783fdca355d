import AppStoreModel

/// Look Up Order ID.
extension AppStoreEmulator {
    /// Look Up Order ID: the transactions of the order a customer found on their email
    /// receipt, in purchase order, with `status` 0; or `status` 1 and no `signedTransactions`
    /// when `environment` has no order with this id, whatever its shape (Apple's status 1
    /// stands for an order id that is invalid or holds no purchase of the app).
    ///
    /// Apple serves this operation in production only; the emulator serves it in the sandbox
    /// too, so that support tools can be tried on sandbox purchases.
    public func lookUpOrder(_ orderId: String, environment: AppStoreEnvironment) throws -> OrderLookupResponse {
        let matches = state.transactionOrder.compactMap { state.transactions[$0] }.filter {
            $0.orderId == orderId && $0.environment == environment
        }
        guard !matches.isEmpty else { return OrderLookupResponse(status: .invalid) }
        return OrderLookupResponse(status: .valid, signedTransactions: try matches.map(signedTransaction))
    }
}
