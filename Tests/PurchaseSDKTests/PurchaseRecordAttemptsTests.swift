import Foundation
import Testing

@testable import PurchaseSDK

/// The failed-attempt count of a record read back from a journal, which may hold any count.
struct PurchaseRecordAttemptsTests {
    @Test func countingStopsAtIntMax() {
        var record = PurchaseRecord(playerId: "alice", productId: "coins100", now: Date(timeIntervalSince1970: 0))
        record.countFailedAttempt()
        #expect(record.attempts == 1)
        record.attempts = .max
        record.countFailedAttempt()
        #expect(record.attempts == .max)
    }
}
