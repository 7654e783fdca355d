import AppStoreModel

/// A purchase waiting for Ask to Buy approval.
public struct PendingPurchase: Codable, Hashable, Sendable {
    public var pendingId: String
    public var deviceId: String
    public var productId: String
    public var quantity: Int
    public var appAccountToken: String?
    public var environment: AppStoreEnvironment
}
