import Foundation
import Testing

@testable import Ledger

/// The ledger's millisecond timestamps of dates from outside, however far off.
struct DateMillisecondsTests {
    @Test func aDateMadeFromInt64MillisecondsGivesThemBack() {
        for milliseconds: Int64 in [0, 1_708_683_072_123, -86_400_000, .max, .min, .max - 1_000] {
            let date = Date(ledgerMilliseconds: milliseconds)
            #expect(abs(Double(date.ledgerMilliseconds) - Double(milliseconds)) <= 1024, "\(milliseconds)")
        }
        #expect(Date(ledgerMilliseconds: .max).ledgerMilliseconds == .max)
        #expect(Date(ledgerMilliseconds: .min).ledgerMilliseconds == .min)
        #expect(Date(ledgerMilliseconds: 1_708_683_072_123).ledgerMilliseconds == 1_708_683_072_123)
    }

    @Test func aDateBeyondInt64MillisecondsIsPinnedToTheNearestEnd() {
        #expect(Date(timeIntervalSince1970: 1e300).ledgerMilliseconds == .max)
        #expect(Date(timeIntervalSince1970: .infinity).ledgerMilliseconds == .max)
        #expect(Date(timeIntervalSince1970: -1e300).ledgerMilliseconds == .min)
        #expect(Date(timeIntervalSince1970: -.infinity).ledgerMilliseconds == .min)
        #expect(Date(timeIntervalSince1970: 1e300).ledgerNormalized == Date(ledgerMilliseconds: .max))
    }

    @Test func aNaNDateIsStoredAsTheEpoch() {
        #expect(Date(timeIntervalSince1970: .nan).ledgerMilliseconds == 0)
    }
}
