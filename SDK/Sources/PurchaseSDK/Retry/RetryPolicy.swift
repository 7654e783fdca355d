import Foundation

/// How long to wait before retrying a call to the server: exponential backoff with
/// jitter, capped. Paid orders are retried forever while the pipeline runs; creating an
/// order (nothing paid yet) and a restore give up after ``orderAttempts`` so the player is
/// not kept waiting.
public struct RetryPolicy: Hashable, Sendable {
    /// The wait after the first failure.
    public var initialDelay: Duration
    /// The longest wait.
    public var maximumDelay: Duration
    /// How much each wait grows.
    public var multiplier: Double
    /// The share of each wait that is random, 0 to 1: 0.5 waits between half and all of it.
    public var jitter: Double
    /// How many times to try creating an order, or reporting a restore, before giving up.
    public var orderAttempts: Int

    /// Creates a policy.
    public init(
        initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(60), multiplier: Double = 2,
        jitter: Double = 0.5, orderAttempts: Int = 3
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = min(max(jitter, 0), 1)
        self.orderAttempts = max(1, orderAttempts)
    }

    /// The wait after `failures` failed attempts (1 after the first), with `random` in
    /// 0..<1 choosing the jittered share.
    ///
    /// A wait that is no number of nanoseconds `Int64` holds (longer than about 292 years,
    /// or NaN from a NaN `multiplier` or `random`) is ``maximumDelay``.
    public func delay(afterFailures failures: Int, random: Double) -> Duration {
        let base = seconds(initialDelay) * pow(multiplier, Double(max(failures, 1) - 1))
        let capped = min(base, seconds(maximumDelay))
        let jittered = capped * (1 - jitter + jitter * min(max(random, 0), 1))
        guard let nanoseconds = Int64(exactly: (jittered * 1e9).rounded()) else { return maximumDelay }
        return .nanoseconds(nanoseconds)
    }

    /// The wait after `failures` failed attempts when the server asked for `retryAfter`
    /// (`Retry-After`): at least that long, spread by the policy's jitter so that the
    /// clients a server shed do not all come back at once, and at most ``maximumDelay``
    /// (a paid order is never held longer than the backoff's own longest wait); without
    /// `retryAfter`, ``delay(afterFailures:random:)``.
    public func delay(afterFailures failures: Int, random: Double, retryAfter: Duration?) -> Duration {
        let backoff = delay(afterFailures: failures, random: random)
        guard let retryAfter, retryAfter > .zero else { return backoff }
        let spread = seconds(retryAfter) * (1 + jitter * min(max(random, 0), 1))
        let asked = Int64(exactly: (spread * 1e9).rounded()).map { Duration.nanoseconds($0) } ?? maximumDelay
        return max(backoff, min(asked, maximumDelay))
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
