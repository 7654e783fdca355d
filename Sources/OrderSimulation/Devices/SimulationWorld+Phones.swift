import AppStoreEmulator
import Foundation
import PurchaseSDK
import PurchaseSDKEmulator

extension SimulationWorld {
    /// The store client of one app launch on phone `deviceId`: the SDK's StoreKit adapter
    /// of the phone's generation, with its StoreKit files in `dataDirectory`, when the
    /// phones run through StoreKit; else the emulator in process, whose promoted purchases
    /// come from `promotions`.
    func storeClient(
        deviceId: String, generation: InProcessStoreClient.Generation, promotions: PromotionBroadcaster,
        dataDirectory: URL
    ) throws -> any StoreClient {
        guard let appStore else {
            return InProcessStoreClient(
                emulator: emulator, deviceId: deviceId, generation: generation, promotions: promotions,
                pollInterval: .milliseconds(200))
        }
        #if os(Linux)
            return try StoreKitPhoneClient(
                appStore: appStore, deviceId: deviceId, dataDirectory: dataDirectory, generation: generation)
        #else
            throw SimulationError(
                "phones through StoreKit need StoreKit for Linux; on Apple platforms use the emulator")
        #endif
    }

    /// The App Store promotes `productId` on phone `deviceId`: through the emulator, which
    /// the phone's StoreKit polls, or through `promotions` for the in-process store.
    func promote(_ productId: String, on deviceId: String, promotions: PromotionBroadcaster) async {
        if appStore != nil {
            _ = try? await emulator.promote(deviceId: deviceId, productId: productId)
        } else {
            promotions.send(PromotedPurchase(productId: productId))
        }
    }
}
