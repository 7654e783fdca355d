/// What the simulation's phones buy through.
public enum PhoneStore: String, CaseIterable, Hashable, Sendable, Codable {
    /// The emulator's device calls, in process (``InProcessStoreClient``): the fastest.
    case emulator
    /// The SDK's StoreKit adapters (`PurchaseSDKStoreKit`: StoreKit 2 or StoreKit 1, as each
    /// phone's generation) over StoreKit for Linux, which reaches the emulator over HTTP on
    /// a port of its own; each app launch is a StoreKit process of its own.
    case storeKit = "storekit"
}
