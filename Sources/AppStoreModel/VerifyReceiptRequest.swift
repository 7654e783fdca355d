/// The JSON body of a request to Apple's verifyReceipt endpoint.
///
/// Properties are camelCase; the JSON keys are Apple's (`receipt-data`, `password`,
/// `exclude-old-transactions`).
public struct VerifyReceiptRequest: Hashable, Codable, Sendable {
    /// The Base64-encoded app receipt. Required by Apple; optional here so that a
    /// server (the emulator) can decode a request without it and answer 21002.
    public var receiptData: String?
    /// The app's shared secret; needed for receipts with auto-renewable subscriptions.
    public var password: String?
    /// Whether `latest_receipt_info` should hold only the latest renewal of each
    /// subscription.
    public var excludeOldTransactions: Bool?

    /// Creates a request body.
    ///
    /// - Parameters:
    ///   - receiptData: the Base64-encoded app receipt.
    ///   - password: the app's shared secret, if any.
    ///   - excludeOldTransactions: whether to ask for the latest renewals only.
    public init(
        receiptData: String?, password: String? = nil, excludeOldTransactions: Bool? = nil
    ) {
        self.receiptData = receiptData
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
    }

    /// Decodes a request, accepting `exclude-old-transactions` as a JSON Boolean or as
    /// the strings `"true"`/`"false"` that some clients send.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receiptData = try container.decodeIfPresent(String.self, forKey: .receiptData)
        password = try container.decodeIfPresent(String.self, forKey: .password)
        excludeOldTransactions = try container.decodeLenientBoolIfPresent(
            forKey: .excludeOldTransactions)
    }

    private enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case password
        case excludeOldTransactions = "exclude-old-transactions"
    }
}
