import Foundation
import Ledger
import PurchaseServer

/// How long one name tried from one address waits between attempts (docs/SECURITY.md,
/// "Staff sign-in"): the pair's failures within the window cost nothing up to
/// ``freeFailures``; from then on an attempt is checked only once a delay has passed since
/// the pair's latest failure, 1 second for the first failure over, doubling with each
/// further one, up to ``longestDelay``. Nothing about the account takes part, so a name that
/// exists and one that does not wait alike, and the same name from another address does not
/// wait at all.
struct SignInDelay: Sendable, Hashable {
    /// The failures of a pair within the window that cost nothing
    /// (``ConsoleSettings/lockAfterFailures``).
    var freeFailures: Int
    /// The longest delay, in seconds (``ConsoleSettings/lockSeconds``).
    var longestDelay: TimeInterval

    /// The delay of `settings`.
    init(settings: ConsoleSettings) {
        freeFailures = max(settings.lockAfterFailures, 1)
        longestDelay = settings.lockSeconds
    }

    /// When the pair's next attempt is checked, given its `failures` within the window;
    /// `nil` when it need not wait.
    func nextAttempt(after failures: AuditTally) -> Date? {
        guard failures.count >= freeFailures, let latest = failures.latest else { return nil }
        let doublings = min(failures.count - freeFailures, 40)
        return latest.addingTimeInterval(min(Double(1 << doublings), longestDelay))
    }

    /// Whether an attempt that carries a second factor code is checked although the pair
    /// waits (the right password and code of an account with a second factor get in): while
    /// the pair has fewer than twice ``freeFailures`` failures within the window, so at most
    /// ``freeFailures`` such attempts fail before the pair only waits.
    func checksSecondFactor(after failures: AuditTally) -> Bool {
        failures.count < 2 * freeFailures
    }
}
