import PurchaseSDK

/// Which StoreKit a pipeline's store client uses.
public enum StoreKitAPI: String, CaseIterable, Hashable, Sendable {
    /// StoreKit 2 where the system has it (iOS 15, macOS 12, Linux), StoreKit 1 below.
    case automatic
    /// StoreKit 2: `Product`, `Transaction`, `PurchaseIntent`.
    case storeKit2
    /// StoreKit 1: `SKPaymentQueue` and the app receipt.
    case storeKit1

    /// A store client on this StoreKit, for `PipelineConfiguration.store`.
    ///
    /// - Parameter api: `.storeKit2` below iOS 15 or macOS 12 falls back to StoreKit 1.
    public static func storeClient(_ api: StoreKitAPI = .automatic) -> any StoreClient {
        if api != .storeKit1, #available(iOS 15.0, macOS 12.0, *) { return StoreKitStoreClient() }
        return StoreKit1StoreClient()
    }
}
