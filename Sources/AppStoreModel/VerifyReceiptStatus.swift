/// The `status` of a verifyReceipt response: 0 when the receipt is valid, otherwise the
/// reason it is not.
///
/// Unknown values decode unchanged. Apple's internal errors are 21100 to 21199
/// (``internalErrors``); for those the response's `is-retryable` says whether to retry
/// (see ``VerifyReceiptResponse/shouldRetry``).
public struct VerifyReceiptStatus: OpenEnumeration, ExpressibleByIntegerLiteral {
    /// Apple's status code.
    public var rawValue: Int

    /// Creates a status from Apple's status code.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 0: the receipt is valid.
    public static let valid: VerifyReceiptStatus = 0
    /// 21000: the request was not an HTTP POST, or its JSON could not be read.
    public static let invalidRequest: VerifyReceiptStatus = 21000
    /// 21001: no longer sent by the App Store.
    public static let noLongerSent: VerifyReceiptStatus = 21001
    /// 21002: `receipt-data` is malformed or missing, or the service had a temporary
    /// issue. Apple says to try again.
    public static let malformedReceiptData: VerifyReceiptStatus = 21002
    /// 21003: the receipt could not be authenticated.
    public static let notAuthenticated: VerifyReceiptStatus = 21003
    /// 21004: the shared secret (`password`) does not match the account's.
    public static let sharedSecretMismatch: VerifyReceiptStatus = 21004
    /// 21005: the receipt server was temporarily unable to provide the receipt.
    public static let serverUnavailable: VerifyReceiptStatus = 21005
    /// 21006: the receipt is valid but the subscription has expired (iOS 6 style
    /// transaction receipts only); the receipt is still decoded in the response.
    public static let subscriptionExpired: VerifyReceiptStatus = 21006
    /// 21007: a sandbox receipt was sent to production; send it to the sandbox.
    public static let sandboxReceiptSentToProduction: VerifyReceiptStatus = 21007
    /// 21008: a production receipt was sent to the sandbox; send it to production.
    public static let productionReceiptSentToSandbox: VerifyReceiptStatus = 21008
    /// 21009: internal data access error.
    public static let internalDataAccessError: VerifyReceiptStatus = 21009
    /// 21010: the user account cannot be found or has been deleted.
    public static let accountNotFound: VerifyReceiptStatus = 21010

    /// 21100–21199: Apple's internal errors; `is-retryable` tells whether to retry.
    public static let internalErrors: ClosedRange<Int> = 21100...21199

    /// Whether the receipt is valid (status 0).
    public var isValid: Bool { self == .valid }

    /// Whether Apple decoded the receipt and returned it in the response: 0 and 21006.
    public var includesReceipt: Bool { self == .valid || self == .subscriptionExpired }

    /// Whether this is one of Apple's internal errors, 21100–21199.
    public var isInternalError: Bool { Self.internalErrors.contains(rawValue) }

    /// Whether the same request may succeed later: 21002 (Apple: "try again"; a receipt
    /// that is really malformed fails the same way every time, so cap the retries),
    /// 21005, 21009 and the internal errors 21100–21199. A response's `is-retryable`
    /// field takes precedence (see ``VerifyReceiptResponse/shouldRetry``).
    public var isRetryable: Bool {
        switch self {
        case .malformedReceiptData, .serverUnavailable, .internalDataAccessError: true
        default: isInternalError
        }
    }

    /// Whether a sandbox receipt was sent to production (21007).
    public var isSandboxReceiptSentToProduction: Bool {
        self == .sandboxReceiptSentToProduction
    }

    /// Whether a production receipt was sent to the sandbox (21008).
    public var isProductionReceiptSentToSandbox: Bool {
        self == .productionReceiptSentToSandbox
    }

    /// The environment to send the receipt to instead: the sandbox for 21007, production
    /// for 21008, `nil` otherwise.
    public var redirectEnvironment: AppStoreEnvironment? {
        switch self {
        case .sandboxReceiptSentToProduction: .sandbox
        case .productionReceiptSentToSandbox: .production
        default: nil
        }
    }
}
