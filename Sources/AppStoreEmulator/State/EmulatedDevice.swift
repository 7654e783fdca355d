import AppStoreModel

/// A simulated phone with its App Store account.
public struct EmulatedDevice: Codable, Hashable, Sendable {
    /// Any string the caller chooses; the device exists from its first use.
    public var deviceId: String
    /// Where the device's purchases happen unless a purchase says otherwise.
    public var environment: AppStoreEnvironment
    /// When true, purchases wait for a parent's approval (Ask to Buy).
    public var askToBuy: Bool
    /// The Apple account signed in (the device id unless set): devices signed in to the
    /// same account share non-consumables and subscriptions (restore).
    public var appleAccount: String
    /// When true, the account's payment method fails: renewals of its subscriptions fail
    /// into billing retry (a fault hook for the renewal clock).
    public var billingFails: Bool

    /// Creates a device; Sandbox without Ask to Buy, its own Apple account, unless told.
    public init(
        deviceId: String, environment: AppStoreEnvironment = .sandbox, askToBuy: Bool = false,
        appleAccount: String? = nil, billingFails: Bool = false
    ) {
        self.deviceId = deviceId
        self.environment = environment
        self.askToBuy = askToBuy
        self.appleAccount = appleAccount ?? deviceId
        self.billingFails = billingFails
    }

    private enum CodingKeys: String, CodingKey {
        case deviceId, environment, askToBuy, appleAccount, billingFails
    }

    /// Decodes a device; a journal written before accounts and billing faults existed
    /// gives each device its own account and a working payment method.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let deviceId = try container.decode(String.self, forKey: .deviceId)
        self.init(
            deviceId: deviceId,
            environment: try container.decode(AppStoreEnvironment.self, forKey: .environment),
            askToBuy: try container.decode(Bool.self, forKey: .askToBuy),
            appleAccount: try container.decodeIfPresent(String.self, forKey: .appleAccount),
            billingFails: try container.decodeIfPresent(Bool.self, forKey: .billingFails) ?? false
        )
    }
}
