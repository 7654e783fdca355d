/// The customer's subscriptions in one subscription group (Apple's
/// `SubscriptionGroupIdentifierItem` in ``StatusResponse/data``).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct SubscriptionGroupIdentifierItem: Hashable, Codable, Sendable {
    /// The identifier of the subscription group.
    public var subscriptionGroupIdentifier: String?
    /// The latest transaction of each of the customer's subscriptions in the group.
    public var lastTransactions: [LastTransactionsItem]?

    /// Creates an item; every field defaults to absent.
    public init(subscriptionGroupIdentifier: String? = nil, lastTransactions: [LastTransactionsItem]? = nil) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }
}
