/// The JSON body of a verifyReceipt response.
///
/// Properties are camelCase; the JSON keys are Apple's snake_case ones. Numbers and
/// Booleans that Apple sends as strings are ``StringNumber`` and ``StringBool``, and each
/// date comes three ways (see ``ReceiptDate``). Unknown fields are ignored.
public struct VerifyReceiptResponse: Hashable, Codable, Sendable {
    /// 0 when the receipt is valid, otherwise the reason it is not.
    public var status: VerifyReceiptStatus
    /// The environment the receipt belongs to: `Sandbox` or `Production`.
    public var environment: AppStoreEnvironment?
    /// The decoded receipt that was sent.
    public var receipt: Receipt?
    /// All in-app purchase transactions, finished consumables excluded; only for
    /// receipts with auto-renewable subscriptions.
    public var latestReceiptInfo: [InApp]?
    /// The latest Base64-encoded app receipt; only for receipts with auto-renewable
    /// subscriptions.
    public var latestReceipt: String?
    /// The pending renewal of each auto-renewable subscription.
    public var pendingRenewalInfo: [PendingRenewalInfo]?
    /// For internal errors (21100–21199): whether retrying later may succeed. Apple's key
    /// is `is-retryable`; `is_retryable` is accepted when decoding.
    public var isRetryable: Bool?

    /// Creates a response.
    public init(
        status: VerifyReceiptStatus,
        environment: AppStoreEnvironment? = nil,
        receipt: Receipt? = nil,
        latestReceiptInfo: [InApp]? = nil,
        latestReceipt: String? = nil,
        pendingRenewalInfo: [PendingRenewalInfo]? = nil,
        isRetryable: Bool? = nil
    ) {
        self.status = status
        self.environment = environment
        self.receipt = receipt
        self.latestReceiptInfo = latestReceiptInfo
        self.latestReceipt = latestReceipt
        self.pendingRenewalInfo = pendingRenewalInfo
        self.isRetryable = isRetryable
    }

    /// Decodes a response, accepting `status` as a number or numeric string and the
    /// retry flag under `is-retryable` or `is_retryable`, as a Boolean, `0`/`1` or string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let status = try container.decodeLenientInt64IfPresent(forKey: .status),
            let code = Int(exactly: status)
        else {
            throw DecodingError.keyNotFound(
                CodingKeys.status,
                .init(codingPath: container.codingPath, debugDescription: "No integer status"))
        }
        self.status = VerifyReceiptStatus(rawValue: code)
        environment = try container.decodeIfPresent(
            AppStoreEnvironment.self, forKey: .environment)
        receipt = try container.decodeIfPresent(Receipt.self, forKey: .receipt)
        latestReceiptInfo = try container.decodeIfPresent(
            [InApp].self, forKey: .latestReceiptInfo)
        latestReceipt = try container.decodeIfPresent(String.self, forKey: .latestReceipt)
        pendingRenewalInfo = try container.decodeIfPresent(
            [PendingRenewalInfo].self, forKey: .pendingRenewalInfo)
        let legacy = try decoder.container(keyedBy: LegacyCodingKeys.self)
        isRetryable =
            try container.decodeLenientBoolIfPresent(forKey: .isRetryable)
            ?? legacy.decodeLenientBoolIfPresent(forKey: .isRetryable)
    }

    private enum CodingKeys: String, CodingKey {
        case status
        case environment
        case receipt
        case latestReceiptInfo = "latest_receipt_info"
        case latestReceipt = "latest_receipt"
        case pendingRenewalInfo = "pending_renewal_info"
        case isRetryable = "is-retryable"
    }

    private enum LegacyCodingKeys: String, CodingKey {
        case isRetryable = "is_retryable"
    }
}

extension VerifyReceiptResponse {
    /// Whether sending the same request later may succeed: the response's
    /// ``isRetryable`` when present, otherwise ``VerifyReceiptStatus/isRetryable``.
    public var shouldRetry: Bool { isRetryable ?? status.isRetryable }

    /// The transactions to look at: ``latestReceiptInfo`` when present, otherwise the
    /// receipt's `in_app`, otherwise none.
    public var latestTransactions: [InApp] { latestReceiptInfo ?? receipt?.inApp ?? [] }
}
