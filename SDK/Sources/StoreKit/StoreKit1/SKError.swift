import Foundation

/// Error codes for StoreKit errors (StoreKit 1).
///
/// Apple: `struct SKError` (https://developer.apple.com/documentation/storekit/skerror).
/// On Linux its `userInfo` keeps string values only (`NSLocalizedDescriptionKey`, …).
public struct SKError: Error, Hashable, Sendable, CustomNSError, LocalizedError {
    /// The error domain, `SKErrorDomain`.
    public static var errorDomain: String { "SKErrorDomain" }

    /// The error code.
    public let code: SKError.Code
    private let strings: [String: String]

    /// Creates an error with a code and user info (string values are kept).
    public init(_ code: SKError.Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.strings = userInfo.compactMapValues { $0 as? String }
    }

    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { strings }
    /// The user info.
    public var userInfo: [String: Any] { strings }
    public var errorDescription: String? { strings[NSLocalizedDescriptionKey] ?? "SKError \(code)" }

    /// Codes for StoreKit errors.
    public enum Code: Int, Hashable, Sendable {
        case unknown = 0
        case clientInvalid = 1
        case paymentCancelled = 2
        case paymentInvalid = 3
        case paymentNotAllowed = 4
        case storeProductNotAvailable = 5
        case cloudServicePermissionDenied = 6
        case cloudServiceNetworkConnectionFailed = 7
        case cloudServiceRevoked = 8
        case privacyAcknowledgementRequired = 9
        case unauthorizedRequestData = 10
        case invalidOfferIdentifier = 11
        case invalidSignature = 12
        case missingOfferParams = 13
        case invalidOfferPrice = 14
        case overlayCancelled = 15
        case overlayInvalidConfiguration = 16
        case overlayTimeout = 17
        case ineligibleForOffer = 18
        case unsupportedPlatform = 19
        case overlayPresentedInBackgroundScene = 20
    }

    public static let unknown = Code.unknown
    public static let clientInvalid = Code.clientInvalid
    public static let paymentCancelled = Code.paymentCancelled
    public static let paymentInvalid = Code.paymentInvalid
    public static let paymentNotAllowed = Code.paymentNotAllowed
    public static let storeProductNotAvailable = Code.storeProductNotAvailable
}

/// The domain of StoreKit 1 errors.
public let SKErrorDomain = "SKErrorDomain"
