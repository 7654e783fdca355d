/// `POST /v1/purchases/restore`: the account's current transactions (1 to
/// ``maximumCount``).
struct RestoreRequestBody: Encodable, Hashable, Sendable {
    /// The most signed transactions one request carries.
    static let maximumCount = 100

    var signedTransactions: [String]
}

/// Its answer: what became of each transaction, one result per transaction reported and in
/// the same order, and the player's entitlements after it.
struct RestoreAnswer: Decodable, Hashable, Sendable {
    var results: [Result]
    var entitlements: [EntitlementBody]

    /// One transaction's result.
    struct Result: Decodable, Hashable, Sendable {
        /// `nil` when the server could not read the transaction.
        var transactionId: String?
        var originalTransactionId: String?
        var productId: String?
        var status: String
        var code: String?
        var message: String?
    }
}
