/// The answer of `purchases.voidedpurchases.list`: Google's `VoidedPurchasesListResponse`.
public struct VoidedPurchasesListResponse: Codable, Hashable, Sendable {
    /// The next page's token; absent on the last page.
    public var tokenPagination: TokenPagination?
    /// The voided purchases of this page, oldest first.
    public var voidedPurchases: [VoidedPurchase]?

    /// Creates an answer.
    public init(tokenPagination: TokenPagination? = nil, voidedPurchases: [VoidedPurchase]? = nil) {
        self.tokenPagination = tokenPagination
        self.voidedPurchases = voidedPurchases
    }
}

/// Google's `TokenPagination`: the tokens that address the pages next to this one.
public struct TokenPagination: Codable, Hashable, Sendable {
    /// The token of the next page: the list method's `token` query parameter.
    public var nextPageToken: String?
    /// The token of the previous page.
    public var previousPageToken: String?

    /// Creates a pagination.
    public init(nextPageToken: String? = nil, previousPageToken: String? = nil) {
        self.nextPageToken = nextPageToken
        self.previousPageToken = previousPageToken
    }
}
