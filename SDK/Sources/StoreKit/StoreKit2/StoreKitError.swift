import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Error information for StoreKit errors.
///
/// Apple: `enum StoreKitError` (https://developer.apple.com/documentation/storekit/storekiterror).
public enum StoreKitError: Error, LocalizedError {
    /// An unknown error occurred.
    case unknown
    /// The user canceled.
    case userCancelled
    /// A network error occurred (the emulator could not be reached).
    case networkError(URLError)
    /// A system error occurred; on Linux also a ``StoreKitConfigurationError`` or an
    /// emulator answer StoreKit did not expect.
    case systemError(any Error)
    /// The product is not available in the current storefront.
    case notAvailableInStorefront
    /// The app doesn't have the appropriate entitlements to use StoreKit.
    case notEntitled
    /// The operation is unsupported.
    case unsupported

    public var errorDescription: String? {
        switch self {
        case .unknown: "An unknown error occurred."
        case .userCancelled: "The user cancelled."
        case .networkError(let error): "A network error occurred: \(error.localizedDescription)"
        case .systemError(let error): "A system error occurred: \(error)"
        case .notAvailableInStorefront: "The product is not available in the current storefront."
        case .notEntitled: "The app is not entitled to use StoreKit."
        case .unsupported: "The operation is unsupported."
        }
    }
}
