import AppStoreModel

extension AppStoreServerAPIClient {
    /// Gets every page of the customer's transaction history, following `revision` until
    /// `hasMore` is false.
    ///
    /// - Parameters:
    ///   - transactionId: any transaction id of the customer's.
    ///   - revision: where to resume (a stored ``HistoryResponse/revision``); `nil` for the
    ///     beginning.
    ///   - maximumPages: how many pages to fetch at most before giving up.
    /// - Returns: One response holding every page's transactions in order, the last
    ///   page's `revision` (store it to resume later), `hasMore` false, and the app's
    ///   identifiers and environment as the last page gave them.
    /// - Throws: ``AppStoreServerAPIError``; ``AppStoreServerAPIError/Kind/paginationFailed``
    ///   when a page says `hasMore` without a new `revision`, or after `maximumPages`.
    public func getAllTransactionHistory(
        transactionId: String, revision: String? = nil, maximumPages: Int = 1000
    ) async throws(AppStoreServerAPIError) -> HistoryResponse {
        var merged = HistoryResponse(revision: revision, hasMore: false, signedTransactions: [])
        var cursor = revision
        for _ in 0..<max(maximumPages, 1) {
            let page = try await getTransactionHistory(transactionId: transactionId, revision: cursor)
            merged.signedTransactions?.append(contentsOf: page.signedTransactions ?? [])
            merged.revision = page.revision ?? merged.revision
            merged.bundleId = page.bundleId ?? merged.bundleId
            merged.appAppleId = page.appAppleId ?? merged.appAppleId
            merged.environment = page.environment ?? merged.environment
            guard page.hasMore == true else { return merged }
            cursor = try Self.nextRevision(after: cursor, page: page.revision)
        }
        throw AppStoreServerAPIError(
            kind: .paginationFailed, message: "transaction history still has more after \(maximumPages) pages")
    }

    /// Gets every page of the customer's refund history, following `revision` until
    /// `hasMore` is false.
    ///
    /// - Parameters:
    ///   - transactionId: any transaction id of the customer's.
    ///   - revision: where to resume; `nil` for the beginning.
    ///   - maximumPages: how many pages to fetch at most before giving up.
    /// - Returns: One response holding every page's transactions in order, the last
    ///   page's `revision` and `hasMore` false.
    /// - Throws: ``AppStoreServerAPIError``, as ``getAllTransactionHistory(transactionId:revision:maximumPages:)``.
    public func getAllRefundHistory(
        transactionId: String, revision: String? = nil, maximumPages: Int = 1000
    ) async throws(AppStoreServerAPIError) -> RefundHistoryResponse {
        var merged = RefundHistoryResponse(signedTransactions: [], revision: revision, hasMore: false)
        var cursor = revision
        for _ in 0..<max(maximumPages, 1) {
            let page = try await getRefundHistory(transactionId: transactionId, revision: cursor)
            merged.signedTransactions?.append(contentsOf: page.signedTransactions ?? [])
            merged.revision = page.revision ?? merged.revision
            guard page.hasMore == true else { return merged }
            cursor = try Self.nextRevision(after: cursor, page: page.revision)
        }
        throw AppStoreServerAPIError(
            kind: .paginationFailed, message: "refund history still has more after \(maximumPages) pages")
    }

    /// The revision to ask for next; throws when the page gave none, or the same again.
    private static func nextRevision(
        after previous: String?, page revision: String?
    ) throws(AppStoreServerAPIError) -> String {
        guard let revision, revision != previous else {
            throw AppStoreServerAPIError(
                kind: .paginationFailed, message: "a page says hasMore but gives no new revision")
        }
        return revision
    }
}
