import Foundation
import PurchaseSDK
import PurchaseSDKStoreKit

#if os(Linux)
    @_spi(StoreKeeperDevices) import StoreKit

    /// One launch of the game on a phone, buying through the SDK's StoreKit adapter as the
    /// shipped game does: `StoreKitStoreClient` (StoreKit 2) or `StoreKit1StoreClient`,
    /// over StoreKit for Linux. Every call runs as the phone's `StoreKitDevice`, so many
    /// phones share one process as if each were its own.
    struct StoreKitPhoneClient: StoreClient {
        private let device: StoreKitDevice
        private let adapter: any StoreClient

        /// The adapter of `generation` on emulator device `deviceId` of the App Store at
        /// `appStore`, with the app's StoreKit files (receipt, pinned root) in `dataDirectory`.
        init(
            appStore: URL, deviceId: String, dataDirectory: URL, generation: InProcessStoreClient.Generation
        ) throws {
            let device = try StoreKitDevice(url: appStore, deviceId: deviceId, dataDirectory: dataDirectory)
            self.device = device
            adapter = device.run {
                StoreKitAPI.storeClient(generation == .storeKit1 ? .storeKit1 : .storeKit2)
            }
        }

        func products(ids: [String]) async throws -> [StoreProduct] {
            try await device.run { try await adapter.products(ids: ids) }
        }

        func purchase(productId: String, appAccountToken: String, quantity: Int) async throws
            -> StorePurchaseResult
        {
            try await device.run {
                try await adapter.purchase(productId: productId, appAccountToken: appAccountToken, quantity: quantity)
            }
        }

        func transactionUpdates() -> AsyncStream<StoreTransaction> {
            device.run { adapter.transactionUpdates() }
        }

        func unfinishedTransactions() async throws -> [StoreTransaction] {
            try await device.run { try await adapter.unfinishedTransactions() }
        }

        func currentTransactions() async throws -> [StoreTransaction] {
            try await device.run { try await adapter.currentTransactions() }
        }

        func finish(transactionId: String) async throws {
            try await device.run { try await adapter.finish(transactionId: transactionId) }
        }

        func receipt(refresh: Bool) async throws -> String? {
            try await device.run { try await adapter.receipt(refresh: refresh) }
        }

        func promotedPurchases() -> AsyncStream<PromotedPurchase> {
            device.run { adapter.promotedPurchases() }
        }
    }
#endif
