import Foundation
import Ledger

/// A change the run made Apple make to a chain (a purchase, a renewal, a billing failure,
/// an upgrade, a refund, a revocation…), with the state it should bring the ledger's
/// entitlement to: what ``EntitlementLag`` measures from.
public struct AppleChange: Codable, Hashable, Sendable {
    /// The chain.
    public var originalTransactionId: String
    /// The player who must hold the chain.
    public var playerId: String
    /// What Apple did (`renew`, `failRenewal grace`, `upgrade`, …).
    public var action: String
    /// When Apple did it.
    public var at: Date
    /// The state the ledger's entitlement should reach.
    public var expectedState: EntitlementState
    /// The end it should reach, when Apple's change sets a known one (a renewal's new
    /// `expiresDate`); `nil` matches any end.
    public var expectedUntil: Date?

    /// Creates a change.
    public init(
        originalTransactionId: String, playerId: String, action: String, at: Date, expectedState: EntitlementState,
        expectedUntil: Date? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.playerId = playerId
        self.action = action
        self.at = at
        self.expectedState = expectedState
        self.expectedUntil = expectedUntil
    }
}

/// The entitlement lag of a run: the time from each of Apple's changes to the first
/// change of the ledger's entitlement that reflects it (a notification delivered, the app's
/// report of a new transaction, or the reconciler's pass when the notification was lost).
public struct EntitlementLag: Codable, Hashable, Sendable {
    /// Apple's changes the ledger was seen to follow.
    public var measured: Int
    /// Apple's changes the ledger never showed as such: a later change overtook them
    /// before the ledger caught up (the ledger skips states it no longer needs), or the
    /// ledger does not record the state they lead to.
    public var unmeasured: Int
    /// Action → how many of its changes went unmeasured.
    public var unmeasuredActions: [String: Int] = [:]
    /// The longest lag, in seconds (0 when nothing was measured).
    public var maximumSeconds: Double
    /// The change with the longest lag.
    public var worst: AppleChange?

    /// Creates a lag.
    public init(measured: Int, unmeasured: Int, maximumSeconds: Double, worst: AppleChange?) {
        self.measured = measured
        self.unmeasured = unmeasured
        self.maximumSeconds = maximumSeconds
        self.worst = worst
    }

    /// Measures each change against the ledger's history: the first recorded change of the
    /// same chain, for the same player, at or after Apple's change, in the expected state
    /// (and with the expected end, within `tolerance`).
    public static func measure(
        changes: [AppleChange], history: [EntitlementChange], tolerance: TimeInterval = 1
    ) -> EntitlementLag {
        let byChain = Dictionary(grouping: history, by: \.originalTransactionId).mapValues {
            $0.sorted { $0.at < $1.at }
        }
        var lag = EntitlementLag(measured: 0, unmeasured: 0, maximumSeconds: 0, worst: nil)
        for change in changes {
            let seen = byChain[change.originalTransactionId]?.first { recorded in
                recorded.playerId == change.playerId && recorded.at >= change.at
                    && recorded.state == change.expectedState
                    && Self.sameEnd(recorded.until, change.expectedUntil, tolerance: tolerance)
            }
            guard let seen else {
                lag.unmeasured += 1
                lag.unmeasuredActions[change.action, default: 0] += 1
                continue
            }
            lag.measured += 1
            let seconds = seen.at.timeIntervalSince(change.at)
            if seconds >= lag.maximumSeconds {
                lag.maximumSeconds = seconds
                lag.worst = change
            }
        }
        return lag
    }

    /// Whether a recorded end matches the expected one (any end when none is expected).
    private static func sameEnd(_ recorded: Date?, _ expected: Date?, tolerance: TimeInterval) -> Bool {
        guard let expected else { return true }
        guard let recorded else { return false }
        return abs(recorded.timeIntervalSince(expected)) <= tolerance
    }
}
