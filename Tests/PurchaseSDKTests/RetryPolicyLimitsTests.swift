import Foundation
import PurchaseSDK
import Testing

/// Retry policies whose waits no `Int64` of nanoseconds holds.
@Suite(.timeLimit(.minutes(3))) struct RetryPolicyLimitsTests {
    @Test func aNaNWaitIsTheLongestWait() {
        let policy = RetryPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(60), multiplier: .nan, jitter: 0)
        #expect(policy.delay(afterFailures: 3, random: 0.5) == .seconds(60))
        let noRandom = RetryPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(60), jitter: 0.5)
        #expect(noRandom.delay(afterFailures: 1, random: .nan) == .seconds(60))
    }

    @Test func aWaitBeyond292YearsIsTheLongestWait() {
        let longest = Duration.seconds(Int64.max / 2)
        let policy = RetryPolicy(initialDelay: .seconds(1), maximumDelay: longest, multiplier: 10, jitter: 0)
        #expect(policy.delay(afterFailures: 1, random: 0) == .seconds(1))
        #expect(policy.delay(afterFailures: 40, random: 0) == longest)
    }
}
