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

    /// The code's raw value (`CustomNSError`).
    public var errorCode: Int { code.rawValue }
    /// The user info (`CustomNSError`): string values only.
    public var errorUserInfo: [String: Any] { strings }
    /// The user info.
    public var userInfo: [String: Any] { strings }
    /// The localized description, or `SKError` and the code.
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

    // Apple's `static var <code>: SKError.Code { get }`, one per code, so `SKError.unknown`
    // matches a caught error's code as on Apple platforms.
    /// The code `SKError.Code.unknown`.
    public static var unknown: SKError.Code { .unknown }
    /// The code `SKError.Code.clientInvalid`.
    public static var clientInvalid: SKError.Code { .clientInvalid }
    /// The code `SKError.Code.paymentCancelled`.
    public static var paymentCancelled: SKError.Code { .paymentCancelled }
    /// The code `SKError.Code.paymentInvalid`.
    public static var paymentInvalid: SKError.Code { .paymentInvalid }
    /// The code `SKError.Code.paymentNotAllowed`.
    public static var paymentNotAllowed: SKError.Code { .paymentNotAllowed }
    /// The code `SKError.Code.storeProductNotAvailable`.
    public static var storeProductNotAvailable: SKError.Code { .storeProductNotAvailable }
    /// The code `SKError.Code.cloudServicePermissionDenied`.
    public static var cloudServicePermissionDenied: SKError.Code { .cloudServicePermissionDenied }
    /// The code `SKError.Code.cloudServiceNetworkConnectionFailed`.
    public static var cloudServiceNetworkConnectionFailed: SKError.Code { .cloudServiceNetworkConnectionFailed }
    /// The code `SKError.Code.cloudServiceRevoked`.
    public static var cloudServiceRevoked: SKError.Code { .cloudServiceRevoked }
    /// The code `SKError.Code.privacyAcknowledgementRequired`.
    public static var privacyAcknowledgementRequired: SKError.Code { .privacyAcknowledgementRequired }
    /// The code `SKError.Code.unauthorizedRequestData`.
    public static var unauthorizedRequestData: SKError.Code { .unauthorizedRequestData }
    /// The code `SKError.Code.invalidOfferIdentifier`.
    public static var invalidOfferIdentifier: SKError.Code { .invalidOfferIdentifier }
    /// The code `SKError.Code.invalidSignature`.
    public static var invalidSignature: SKError.Code { .invalidSignature }
    /// The code `SKError.Code.missingOfferParams`.
    public static var missingOfferParams: SKError.Code { .missingOfferParams }
    /// The code `SKError.Code.invalidOfferPrice`.
    public static var invalidOfferPrice: SKError.Code { .invalidOfferPrice }
    /// The code `SKError.Code.overlayCancelled`.
    public static var overlayCancelled: SKError.Code { .overlayCancelled }
    /// The code `SKError.Code.overlayInvalidConfiguration`.
    public static var overlayInvalidConfiguration: SKError.Code { .overlayInvalidConfiguration }
    /// The code `SKError.Code.overlayTimeout`.
    public static var overlayTimeout: SKError.Code { .overlayTimeout }
    /// The code `SKError.Code.ineligibleForOffer`.
    public static var ineligibleForOffer: SKError.Code { .ineligibleForOffer }
    /// The code `SKError.Code.unsupportedPlatform`.
    public static var unsupportedPlatform: SKError.Code { .unsupportedPlatform }
    /// The code `SKError.Code.overlayPresentedInBackgroundScene`.
    public static var overlayPresentedInBackgroundScene: SKError.Code { .overlayPresentedInBackgroundScene }
}

/// The domain of StoreKit 1 errors.
public let SKErrorDomain = "SKErrorDomain"
