import AppStoreModel

/// Get Refund History (version 2).
extension AppStoreEmulator {
    /// Get Refund History: the refunded transactions of the customer `anyTransactionId`
    /// belongs to, in pages of 20 by `revocationDate`, oldest first.
    ///
    /// Only refunds count (in whole or in part), not revocations from Family Sharing, and
    /// only while they stand: a reversed refund leaves the list. Every page carries a
    /// `revision`; the last page's, kept, later gives the refunds made since (a transaction
    /// refunded again after a reversal comes again, with its new `revocationDate`).
    ///
    /// - Parameters:
    ///   - anyTransactionId: any id of the customer's (see ``customer(_:environment:)``).
    ///   - revision: the previous page's `revision`; `nil` for the first page.
    ///   - environment: the environment whose transactions are listed.
    /// - Throws: ``APIError`` 404 with 4040010 for an unknown id; 400 with 4000005 for a
    ///   revision this customer's refund history did not issue.
    public func refundHistory(
        _ anyTransactionId: String,
        revision: String? = nil,
        environment: AppStoreEnvironment
    ) throws -> RefundHistoryResponse {
        let customer = try customer(anyTransactionId, environment: environment)
        let key = { (transaction: EmulatedTransaction) in
            TransactionSortKey(date: transaction.revocationDate ?? 0, transactionId: transaction.transactionId)
        }
        let refunded = state.transactions(of: customer.deviceId, in: environment).filter(\.isRefunded)
            .sorted { key($0) < key($1) }
        let start = PageToken(query: ["refundHistory", environment.rawValue, customer.deviceId])
        let (page, next, hasMore) = try Self.page(
            refunded, by: key, after: revision, start: start,
            invalid: APIError(status: 400, code: .invalidRequestRevision, "invalid revision for this refund history"))
        return RefundHistoryResponse(
            signedTransactions: try page.map(signedTransaction),
            revision: next.text,
            hasMore: hasMore
        )
    }
}
