import PurchaseSDK
import PurchaseSDKStoreKit

#if os(Linux)
    import StoreKit
#endif

/// The store clients of `store` `storekit2` and `storekit1`: the SDK's StoreKit adapters
/// (``StoreKitAPI/storeClient(_:)``). On Linux they run over StoreKit for Linux, which finds
/// the emulator through `STOREKEEPER_STOREKIT_URL`, `STOREKEEPER_STOREKIT_DEVICE` and
/// `STOREKEEPER_STOREKIT_DATA`; `sk_open` checks them so that a missing one is told at once.
enum StoreKitStores {
    /// A StoreKit adapter on `api`; throws `store_unavailable` naming the environment
    /// variable at fault when StoreKit for Linux is not configured.
    static func client(_ api: StoreKitAPI) throws -> any StoreClient {
        #if os(Linux)
            do {
                _ = try StoreKitConfiguration.current()
            } catch {
                throw ABIError(code: "store_unavailable", message: error.description)
            }
        #endif
        return StoreKitAPI.storeClient(api)
    }
}
