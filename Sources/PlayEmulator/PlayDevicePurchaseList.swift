/// The answer of `GET /emulator/v1/play/devices/{deviceId}/purchases`: what the Play Billing
/// Library's `queryPurchasesAsync` gives the app.
public struct PlayDevicePurchaseList: Codable, Hashable, Sendable {
    /// The device's purchases it still holds (pending or paid, not consumed, not canceled),
    /// oldest first, each signed as at purchase time.
    public var purchases: [PlayDevicePurchaseResult]

    /// Creates a list.
    public init(purchases: [PlayDevicePurchaseResult]) {
        self.purchases = purchases
    }
}
