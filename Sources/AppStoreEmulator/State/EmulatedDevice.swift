import AppStoreModel

/// A simulated phone with its App Store account.
public struct EmulatedDevice: Codable, Hashable, Sendable {
    /// Any string the caller chooses; the device exists from its first use.
    public var deviceId: String
    /// Where the device's purchases happen unless a purchase says otherwise.
    public var environment: AppStoreEnvironment
    /// When true, purchases wait for a parent's approval (Ask to Buy).
    public var askToBuy: Bool

    /// Creates a device; Sandbox without Ask to Buy unless told.
    public init(deviceId: String, environment: AppStoreEnvironment = .sandbox, askToBuy: Bool = false) {
        self.deviceId = deviceId
        self.environment = environment
        self.askToBuy = askToBuy
    }
}
