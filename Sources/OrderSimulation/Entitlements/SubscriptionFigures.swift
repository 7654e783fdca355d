/// The subscription side of a run: what the subscription players did, what Apple and the
/// ledger say at the end, the entitlement oracle's violations, and the entitlement lag.
public struct SubscriptionFigures: Codable, Hashable, Sendable {
    /// Subscription players (each with a second device, a second game account and a family
    /// member).
    public var players = 0
    /// Purchases they started through the SDK (first purchases and resubscriptions of
    /// vip.monthly, levelpack1, seasonpass).
    public var purchases = 0
    /// How those purchase calls ended (`delivered`, `failed:REASON`, …); not counted in the
    /// report's `outcomes`.
    public var outcomes: [String: Int] = [:]
    /// Renewals Apple made (DID_RENEW), recoveries from billing retry included.
    public var renewals = 0
    /// Renewals whose DID_RENEW notification the notification faults dropped (the app's
    /// report or the reconciler must bring them in).
    public var renewalNotificationsDropped = 0
    /// Downgrades (effective at the next renewal).
    public var downgrades = 0
    /// Voluntary cancellations (auto-renew off, then expiry).
    public var cancellations = 0
    /// Subscriptions and purchases shared with a family member.
    public var familyShares = 0
    /// The oracle's counts and violations.
    public var verdict = EntitlementVerdict(
        chains: 0, periods: 0, standingPeriods: 0, entitledByApple: 0, entitledByLedger: 0, violations: [])
    /// The time from Apple's changes to the ledger's.
    public var lag = EntitlementLag(measured: 0, unmeasured: 0, maximumSeconds: 0, worst: nil)

    /// Whether the entitlement invariant holds.
    public var holds: Bool { verdict.holds }

    /// Creates empty figures.
    public init() {}
}
