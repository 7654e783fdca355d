/// `POST /emulator/v1/devices/{id}/purchases`.
struct DevicePurchaseBody: Codable, Hashable, Sendable {
    var productId: String
    var appAccountToken: String?
    var quantity: Int
    /// The client reads the receipt from `GET …/receipt` when it needs one, so the
    /// purchase's answer need not carry it (no RSA signature per charge).
    var includeAppReceipt = false
}

/// Its answer: `purchased` with the transaction, or `pending` under Ask to Buy.
struct DevicePurchaseAnswer: Codable, Hashable, Sendable {
    var outcome: String
    var transactionId: String?
    var signedTransaction: String?
    /// The account's app download transaction, with `purchased`.
    var appTransactionId: String?
}

/// A transaction of `GET …/transactions/unfinished` and `POST …/restore`.
struct DeviceTransactionBody: Codable, Hashable, Sendable {
    var transactionId: String
    var productId: String
    var appAccountToken: String?
    var signedTransaction: String?
    /// The account's app download transaction.
    var appTransactionId: String?
}

/// A product of `GET /emulator/v1/products`.
struct EmulatorProductBody: Codable, Hashable, Sendable {
    var productId: String
    /// Apple's product type: `Consumable`, `Non-Consumable`, `Auto-Renewable Subscription`, …
    var type: String?
    var price: Int64
    var currency: String
    var displayName: String?

    /// Whether it is a consumable, which no restore ever lists.
    var isConsumable: Bool { type == "Consumable" }
}

/// `GET …/receipt`.
struct ReceiptAnswer: Codable, Hashable, Sendable {
    var appReceipt: String
}

/// `POST …/finish`.
struct FinishAnswer: Codable, Hashable, Sendable {
    var finished: Bool
}

/// A body with no fields.
struct EmptyBody: Codable, Hashable, Sendable {}
