extension PlayerEntitlement {
    /// Where an entitlement stands, with the server's raw values (`active`, `grace_period`,
    /// …). A value this SDK does not know is kept as it came and entitles nothing.
    public struct State: RawRepresentable, Codable, Hashable, Sendable {
        /// The server's value.
        public var rawValue: String

        /// The state with this raw value.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Paid and running.
        public static let active = State(rawValue: "active")
        /// Apple could not renew, and the subscription's grace period still entitles.
        public static let gracePeriod = State(rawValue: "grace_period")
        /// Apple could not renew and is still trying; nothing entitled meanwhile.
        public static let billingRetry = State(rawValue: "billing_retry")
        /// Ended (or past its `until`).
        public static let expired = State(rawValue: "expired")
        /// Taken back without a refund (family sharing stopped, Apple's revocation).
        public static let revoked = State(rawValue: "revoked")
        /// Refunded by Apple.
        public static let refunded = State(rawValue: "refunded")

        /// Whether the state entitles (``active`` or ``gracePeriod``), before `until` is
        /// considered.
        public var entitles: Bool {
            self == .active || self == .gracePeriod
        }
    }
}
