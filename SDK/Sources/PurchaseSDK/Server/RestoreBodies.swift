/// `POST /v1/purchases/restore`: the account's current transactions (1 to
/// ``maximumCount``), signed (StoreKit 2), or named in the app receipt (StoreKit 1).
struct RestoreRequestBody: Encodable, Hashable, Sendable {
    /// The most transactions one request carries.
    static let maximumCount = 100

    /// StoreKit 2's signed transactions.
    var signedTransactions: [String]?
    /// The app receipt, base64, holding ``transactionIds``.
    var receipt: String?
    /// StoreKit 1's restored transactions, by id.
    var transactionIds: [String]?
    /// Google Play purchases (`queryPurchasesAsync`), each read from Google by the server.
    var googlePlay: [GooglePlayPurchase]?

    /// The signed transactions, one each.
    init(signedTransactions: [String]) {
        self.signedTransactions = signedTransactions
    }

    /// The transactions `transactionIds` names in `receipt`, one each.
    init(receipt: String, transactionIds: [String]) {
        self.receipt = receipt
        self.transactionIds = transactionIds
    }

    /// The Google Play purchases, one each.
    init(googlePlay: [GooglePlayPurchase]) {
        self.googlePlay = googlePlay
    }

    /// How many transactions it reports (one result comes back for each).
    var count: Int { signedTransactions?.count ?? transactionIds?.count ?? googlePlay?.count ?? 0 }
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
