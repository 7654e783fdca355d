/// The state of an ``Entitlement``, derived from Apple's signed data. The raw values are
/// the ones the ledger stores and the server's API, webhook and docs use.
public enum EntitlementState: String, Codable, Hashable, Sendable, CaseIterable {
    /// Paid for and in force.
    case active
    /// Apple could not renew it but keeps the player entitled until the grace period ends.
    case gracePeriod = "grace_period"
    /// Apple could not renew it and keeps trying; the player is not entitled meanwhile.
    case billingRetry = "billing_retry"
    /// It ran out (not renewed, or the period of a non-renewing one ended).
    case expired
    /// Apple revoked it for a reason other than a refund (e.g. family sharing stopped).
    case revoked
    /// Apple refunded it.
    case refunded

    /// Whether this state entitles the player (``active`` or ``gracePeriod``), as long as
    /// the entitlement's `until` has not passed.
    public var entitles: Bool {
        self == .active || self == .gracePeriod
    }
}
