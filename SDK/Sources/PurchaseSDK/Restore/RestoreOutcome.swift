/// What ``PurchasePipeline/restore()`` did: the server's answer for each of the Apple
/// account's current transactions, and the player's entitlements after it.
public struct RestoreOutcome: Hashable, Sendable {
    /// One result per current transaction reported, in the store's order.
    public var results: [RestoredTransaction]
    /// The player's entitlements as the server answered the restore (also cached for
    /// offline use).
    public var entitlements: EntitlementSnapshot

    /// Creates an outcome.
    public init(results: [RestoredTransaction], entitlements: EntitlementSnapshot) {
        self.results = results
        self.entitlements = entitlements
    }
}

/// What became of one transaction in a restore.
public struct RestoredTransaction: Hashable, Sendable {
    /// Apple's transaction id.
    public var transactionId: String
    /// Apple's `originalTransactionId`, as the server read it.
    public var originalTransactionId: String?
    /// The product.
    public var productId: String
    /// The server's verdict.
    public var status: RestoreStatus
    /// The stable reason of a `refused` or `rejected` verdict.
    public var code: String?
    /// The server's words for it.
    public var message: String?
    /// Whether this restore finished the transaction with the store (it was unfinished on
    /// this device and no order of the journal owned it).
    public var finishedByRestore: Bool

    /// Creates a result.
    public init(
        transactionId: String, originalTransactionId: String?, productId: String, status: RestoreStatus,
        code: String? = nil, message: String? = nil, finishedByRestore: Bool = false
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.status = status
        self.code = code
        self.message = message
        self.finishedByRestore = finishedByRestore
    }
}
