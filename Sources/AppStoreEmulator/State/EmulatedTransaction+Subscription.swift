import AppStoreModel
import Foundation

/// The subscription group of an auto-renewable transaction. Its status and renewal
/// information belong to its chain (``EmulatedSubscription``).
extension EmulatedTransaction {
    /// The subscription group of auto-renewable products whose catalog names none (Apple's
    /// identifiers are App Store Connect's decimal ids).
    static let subscriptionGroup = "20000001"

    /// The subscription group, for an auto-renewable subscription.
    var subscriptionGroupIdentifier: String? {
        type == .autoRenewable ? (groupIdentifier ?? Self.subscriptionGroup) : nil
    }
}
