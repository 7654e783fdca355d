extension AppStoreEmulator {
    /// The page size of transaction history, refund history and notification history.
    static let pageSize = 20

    /// One page of a listing of transactions, and the token of the page after it.
    ///
    /// - Parameters:
    ///   - sorted: the whole listing, in its order.
    ///   - key: where a transaction sorts.
    ///   - descending: whether `sorted` is newest first.
    ///   - token: the token of the page before, `nil` for the first page.
    ///   - start: the listing's token before its first item (it names the query).
    ///   - invalid: the error for a token that is not one of this query's.
    /// - Returns: Up to ``pageSize`` transactions after `token`'s position, the token after
    ///   the last of them (`token`'s own when there are none, so a token kept from the last
    ///   page later finds what came since), and whether more follow.
    static func page(
        _ sorted: [EmulatedTransaction],
        by key: (EmulatedTransaction) -> TransactionSortKey,
        descending: Bool = false,
        after token: String?,
        start: PageToken,
        invalid: APIError
    ) throws(APIError) -> (page: ArraySlice<EmulatedTransaction>, next: PageToken, hasMore: Bool) {
        var position = start
        if let token {
            guard let read = PageToken(token, of: start) else { throw invalid }
            position = read
        }
        var remaining = sorted[...]
        if let text = position.position {
            guard let cursor = TransactionSortKey(position: text) else { throw invalid }
            remaining = sorted.drop(while: { descending ? key($0) >= cursor : key($0) <= cursor })
        }
        let page = remaining.prefix(pageSize)
        var next = position
        if let last = page.last { next.position = key(last).position }
        return (page, next, remaining.count > pageSize)
    }
}
