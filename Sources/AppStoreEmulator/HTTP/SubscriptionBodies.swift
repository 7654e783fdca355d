import AppStoreModel
import Foundation

/// The body of `POST /emulator/v1/subscriptions/{id}/fail-renewal`: `{"gracePeriod": true}`.
struct FailRenewalRequest: Decodable {
    var gracePeriod: Bool
}

/// The body of `POST /emulator/v1/subscriptions/{id}/family-share`: `{"deviceId": "..."}`.
struct FamilyShareRequest: Decodable {
    var deviceId: String
}

/// The body of `POST /emulator/v1/devices/{d}/subscriptions/{id}/auto-renew`: `{"enabled": false}`.
struct AutoRenewRequest: Decodable {
    var enabled: Bool
}

/// The body of `POST /emulator/v1/devices/{d}/subscriptions/{id}/change`: `{"productId": "vip.premium"}`.
struct ChangeSubscriptionRequest: Decodable {
    var productId: String
}

/// The optional body of `POST /emulator/v1/process-due-subscriptions`: `{"now": <ms>}`;
/// absent, the current time.
struct ProcessDueRequest: Decodable {
    var now: Int64?
}

/// What the subscription routes answer: the chain, its status now, and the transaction
/// the action made (a renewal, a recovery, an upgrade, a family member's copy), if any.
public struct SubscriptionAnswer: Codable, Hashable, Sendable {
    public var subscription: EmulatedSubscription
    /// Apple's status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
    public var status: SubscriptionStatus
    public var transaction: DeviceTransaction?
}
