import Foundation
import Ledger
import OrderSimulation
import Testing

/// The entitlement oracle on hand-made ledgers (a test double of the server's): a ledger
/// that follows Apple holds, and each way of breaking the invariant is caught on its chain.
@Suite struct EntitlementOracleTests {
    private let oracle = EntitlementOracle()
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let day: TimeInterval = 86_400

    private func period(
        _ id: String, chain: String, start: TimeInterval, days: Double?, standing: Bool = true,
        holders: [String] = ["ann"], product: String = "vip.monthly"
    ) -> PaidPeriod {
        let purchase = now.addingTimeInterval(start * day)
        return PaidPeriod(
            transactionId: id, originalTransactionId: chain, productId: product, purchaseDate: purchase,
            expiresDate: days.map { purchase.addingTimeInterval($0 * day) }, standing: standing, holders: holders)
    }

    private func row(
        _ chain: String, player: String = "ann", state: EntitlementState = .active, untilDays: Double?,
        product: String = "vip.monthly"
    ) -> Entitlement {
        Entitlement(
            store: .appStore,
            originalTransactionId: chain, playerId: player, entitlementId: "vip", productId: product,
            productType: .autoRenewable, transactionId: chain, state: state,
            since: now.addingTimeInterval(-60 * day), until: untilDays.map { now.addingTimeInterval($0 * day) },
            autoRenew: true, autoRenewProductId: product, ownership: .purchased, environment: .sandbox,
            signedAt: now, updatedAt: now)
    }

    private func change(
        _ chain: String, player: String = "ann", state: EntitlementState = .active, untilDays: Double?,
        atDays: TimeInterval = 0, transaction: String? = nil
    ) -> EntitlementChange {
        EntitlementChange(
            playerId: player, originalTransactionId: chain, transactionId: transaction, state: state,
            until: untilDays.map { now.addingTimeInterval($0 * day) }, at: now.addingTimeInterval(atDays * day))
    }

    private func apple(_ chain: String, _ status: String, entitles: Bool, untilDays: Double?) -> AppleEntitlement {
        AppleEntitlement(
            originalTransactionId: chain, status: status, entitles: entitles,
            entitledUntil: untilDays.map { now.addingTimeInterval($0 * day) })
    }

    @Test func aLedgerThatFollowsAppleHolds() {
        let verdict = oracle.judge(
            periods: [
                // A chain renewed once, now in its second period.
                period("r1", chain: "renewed", start: -40, days: 30),
                period("r2", chain: "renewed", start: -10, days: 30),
                // A chain in its grace period.
                period("g1", chain: "grace", start: -31, days: 30),
                // A chain that expired, and one whose only period was refunded.
                period("e1", chain: "expired", start: -45, days: 30),
                period("f1", chain: "refunded", start: -5, days: 30, standing: false),
                // A level pack, and a family member's share of a subscription.
                period("p1", chain: "pack", start: -3, days: nil, product: "levelpack1"),
                period("s1", chain: "shared", start: -2, days: 30, holders: ["bob"]),
            ],
            apple: [
                apple("renewed", "active", entitles: true, untilDays: 20),
                apple("grace", "grace period", entitles: true, untilDays: 15),
                apple("expired", "expired", entitles: false, untilDays: nil),
                apple("refunded", "revoked", entitles: false, untilDays: nil),
                apple("pack", "purchased", entitles: true, untilDays: nil),
                apple("shared", "active", entitles: true, untilDays: 28),
            ],
            ledger: [
                row("renewed", untilDays: 20), row("grace", state: .gracePeriod, untilDays: 15),
                row("expired", state: .expired, untilDays: -15), row("refunded", state: .refunded, untilDays: 25),
                row("pack", untilDays: nil, product: "levelpack1"), row("shared", player: "bob", untilDays: 28),
            ],
            history: [
                change("renewed", untilDays: -10, atDays: -40), change("renewed", untilDays: 20, atDays: -10),
                change("grace", untilDays: -1, atDays: -31), change("grace", state: .gracePeriod, untilDays: 15),
                change("expired", untilDays: -15, atDays: -45), change("expired", state: .expired, untilDays: -15),
                change("refunded", untilDays: 25, atDays: -5), change("refunded", state: .refunded, untilDays: 25),
                change("pack", untilDays: nil, atDays: -3), change("shared", player: "bob", untilDays: 28, atDays: -2),
            ],
            at: now)
        #expect(verdict.holds, "\(verdict.violations)")
        #expect(verdict.chains == 6)
        #expect(verdict.periods == 7)
        #expect(verdict.standingPeriods == 6)
        #expect(verdict.entitledByApple == 4)
        #expect(verdict.entitledByLedger == 4)
    }

    @Test func anEntitlementLeftActivePastExpiryIsCaught() {
        let verdict = oracle.judge(
            periods: [period("x1", chain: "lapsed", start: -45, days: 30)],
            apple: [apple("lapsed", "expired", entitles: false, untilDays: nil)],
            // The ledger missed the expiry and still says active, until a date in the future.
            ledger: [row("lapsed", untilDays: 3)],
            history: [change("lapsed", untilDays: 3, atDays: -45)],
            at: now)
        #expect(!verdict.holds)
        #expect(verdict.violations.map(\.kind) == [.entitledPastApple])
        #expect(verdict.violations.first?.originalTransactionId == "lapsed")
        #expect(verdict.violations.first?.playerId == "ann")
    }

    @Test func eachBrokenInvariantIsCaughtOnItsChain() {
        let verdict = oracle.judge(
            periods: [
                // Apple extended a grace period to day 5; the ledger gives ten more days.
                period("a1", chain: "too-long", start: -29, days: 30),
                // The second game account on the same Apple account took it (keep with first).
                period("b1", chain: "taken", start: -2, days: 30),
                // Apple renewed; the ledger never heard and let it lapse.
                period("c1", chain: "missed", start: -40, days: 30),
                period("c2", chain: "missed", start: -10, days: 30),
                // A renewal whose period the ledger never covered; the chain has expired since.
                period("d1", chain: "skipped", start: -40, days: 30),
                period("d2", chain: "skipped", start: -10, days: 30),
            ],
            apple: [
                apple("too-long", "grace period", entitles: true, untilDays: 5),
                apple("taken", "active", entitles: true, untilDays: 28),
                apple("missed", "active", entitles: true, untilDays: 20),
                apple("skipped", "expired", entitles: false, untilDays: nil),
            ],
            ledger: [
                row("too-long", state: .gracePeriod, untilDays: 15), row("taken", player: "ann-alt", untilDays: 28),
                row("missed", state: .expired, untilDays: -10), row("skipped", state: .expired, untilDays: -10),
                row("forged", player: "mallory", untilDays: 30),
            ],
            history: [
                change("too-long", untilDays: 1, atDays: -29),
                change("taken", player: "ann-alt", untilDays: 28, atDays: -2),
                change("missed", untilDays: -10, atDays: -40), change("skipped", untilDays: -10, atDays: -40),
            ],
            at: now)
        let found = Dictionary(grouping: verdict.violations, by: \.kind).mapValues {
            $0.map(\.originalTransactionId).sorted()
        }
        #expect(found[.entitledPastApple] == ["too-long"])
        #expect(found[.wrongHolder] == ["taken"])
        #expect(found[.notEntitled] == ["missed"])
        #expect(found[.periodNotEntitled] == ["missed", "skipped", "taken"])
        #expect(found[.unbacked] == ["forged"])
        #expect(verdict.violationCounts[.periodNotEntitled] == 3)
    }

    @Test func aGapInTheMiddleOfTheHistoryIsCaught() {
        // Three paid periods; the ledger entitled the first and the third only (the third's
        // change, written later, does not cover the second).
        let verdict = oracle.judge(
            periods: [
                period("m1", chain: "gap", start: -90, days: 30),
                period("m2", chain: "gap", start: -60, days: 30),
                period("m3", chain: "gap", start: -30, days: 30),
            ],
            apple: [apple("gap", "active", entitles: true, untilDays: 0.5)],
            ledger: [row("gap", untilDays: 0.5)],
            history: [
                change("gap", untilDays: -60, atDays: -90),
                change("gap", state: .expired, untilDays: -60, atDays: -60),
                change("gap", untilDays: 0.5, atDays: -30),
            ],
            at: now.addingTimeInterval(-0.25 * day))
        #expect(verdict.violations.map(\.kind) == [.periodNotEntitled])
        #expect(verdict.violations.first?.detail.contains("period m2") == true)
    }

    @Test func theLedgerMayTakeUpToTheLagBoundToEntitleAPeriod() {
        // The renewal's period starts on day -10; the ledger learns of it a day later.
        let periods = [
            period("l1", chain: "late", start: -40, days: 30), period("l2", chain: "late", start: -10, days: 30),
        ]
        let history = [change("late", untilDays: -10, atDays: -40), change("late", untilDays: 20, atDays: -9)]
        func judge(lagDays: Double) -> EntitlementVerdict {
            EntitlementOracle(lagBound: lagDays * day).judge(
                periods: periods, apple: [apple("late", "active", entitles: true, untilDays: 20)],
                ledger: [row("late", untilDays: 20)], history: history, at: now)
        }
        #expect(judge(lagDays: 1.5).holds, "\(judge(lagDays: 1.5).violations)")
        #expect(judge(lagDays: 0.5).violations.map(\.kind) == [.periodNotEntitled])
    }

    @Test func aPeriodEntitledLateMustStayEntitledToItsEnd() {
        // Entitled a day after it started (within the two-day bound), dropped on day -5 and
        // entitled again a day later: without a gap only from day -4, six days after its start.
        let periods = [period("g1", chain: "drop", start: -10, days: 30)]
        let history = [
            change("drop", untilDays: 20, atDays: -9), change("drop", state: .expired, untilDays: 20, atDays: -5),
            change("drop", untilDays: 20, atDays: -4),
        ]
        let verdict = EntitlementOracle(lagBound: 2 * day).judge(
            periods: periods, apple: [apple("drop", "active", entitles: true, untilDays: 20)],
            ledger: [row("drop", untilDays: 20)], history: history, at: now)
        #expect(verdict.violations.map(\.kind) == [.periodNotEntitled])
        #expect(verdict.violations.first?.detail.contains("only from") == true)
        #expect(verdict.periodsEntitledInTime == 1 && abs(verdict.longestPeriodLagSeconds - 6 * day) < 0.001)
    }

    @Test func aPeriodShorterThanTheLagBoundMayEndBeforeTheLedgerLearnsOfIt() {
        // A one-day period the ledger never entitled; the next period is entitled on time.
        let periods = [
            period("s1", chain: "short", start: -3, days: 1), period("s2", chain: "short", start: -2, days: 30),
        ]
        let history = [change("short", untilDays: 28, atDays: -1.5)]
        func judge(lagDays: Double) -> EntitlementVerdict {
            EntitlementOracle(lagBound: lagDays * day).judge(
                periods: periods, apple: [apple("short", "active", entitles: true, untilDays: 28)],
                ledger: [row("short", untilDays: 28)], history: history, at: now)
        }
        let lenient = judge(lagDays: 2)
        #expect(lenient.holds, "\(lenient.violations)")
        #expect(lenient.periodsEntitledAfterTheirEnd == 1 && lenient.periodsEntitledInTime == 1)
        #expect(judge(lagDays: 0.25).violations.map(\.kind) == [.periodNotEntitled, .periodNotEntitled])
    }

    @Test func aShortPeriodOnceRecordedMustStayEntitledToItsEnd() {
        // A one-day period (shorter than the two-day lag bound) the ledger recorded on time
        // and then let lapse before its end; one it learnt of only after its end is counted.
        let periods = [
            period("r1", chain: "rec", start: -5, days: 1), period("r2", chain: "rec", start: -4, days: 1),
            period("r3", chain: "rec", start: -3, days: 1),
        ]
        let history = [
            change("rec", untilDays: -4, atDays: -4.9, transaction: "r1"),
            change("rec", untilDays: -3, atDays: -3.9, transaction: "r2"),
            change("rec", state: .expired, untilDays: -3, atDays: -3.5, transaction: "r2"),
            change("rec", untilDays: -2, atDays: -1.5, transaction: "r3"),
        ]
        let verdict = EntitlementOracle(lagBound: 2 * day).judge(
            periods: periods, apple: [apple("rec", "expired", entitles: false, untilDays: nil)],
            ledger: [row("rec", state: .active, untilDays: -2)], history: history, at: now)
        #expect(verdict.violations.map(\.kind) == [.periodNotEntitled])
        #expect(verdict.violations.first?.detail.contains("period r2") == true)
        #expect(verdict.periodsEntitledInTime == 1 && verdict.periodsEntitledAfterTheirEnd == 1)
    }

    @Test func aRefundAppleReversedExcusesItsGap() {
        // A level pack refunded on day -8 and the refund reversed on day -6.
        func judge(reversed: Bool) -> EntitlementVerdict {
            var pack = period("p1", chain: "pack", start: -10, days: nil, product: "levelpack1")
            pack.refundReversed = reversed
            return EntitlementOracle(lagBound: 5 * day).judge(
                periods: [pack], apple: [apple("pack", "active", entitles: true, untilDays: nil)],
                ledger: [row("pack", untilDays: nil, product: "levelpack1")],
                history: [
                    change("pack", untilDays: nil, atDays: -10, transaction: "p1"),
                    change("pack", state: .refunded, untilDays: nil, atDays: -8, transaction: "p1"),
                    change("pack", untilDays: nil, atDays: -6, transaction: "p1"),
                ],
                at: now)
        }
        #expect(judge(reversed: true).holds, "\(judge(reversed: true).violations)")
        #expect(judge(reversed: false).violations.map(\.kind) == [.periodNotEntitled])
    }

    @Test func aRecoveredPeriodCoveredByGraceFromItsStartHasNoLag() {
        // Grace from the failed period's end (day -2) covers the recovered period, which
        // starts there (back-dated) and reaches the ledger on day -1.5.
        let periods = [
            period("g1", chain: "grace", start: -32, days: 30), period("g2", chain: "grace", start: -2, days: 30),
        ]
        let history = [
            change("grace", untilDays: -2, atDays: -32, transaction: "g1"),
            change("grace", state: .gracePeriod, untilDays: 14, atDays: -2, transaction: "g1"),
            change("grace", untilDays: 28, atDays: -1.5, transaction: "g2"),
        ]
        let verdict = EntitlementOracle(lagBound: 0.1 * day).judge(
            periods: periods, apple: [apple("grace", "active", entitles: true, untilDays: 28)],
            ledger: [row("grace", untilDays: 28)], history: history, at: now)
        #expect(verdict.holds, "\(verdict.violations)")
        #expect(verdict.longestPeriodLagSeconds < 0.001)
    }

    @Test func theLagIsTheTimeToTheFirstLedgerChangeThatReflectsApple() {
        let renewal = AppleChange(
            originalTransactionId: "c", playerId: "ann", action: "renew", at: now, expectedState: .active,
            expectedUntil: now.addingTimeInterval(30 * day))
        let failure = AppleChange(
            originalTransactionId: "c", playerId: "ann", action: "failRenewal", at: now.addingTimeInterval(10),
            expectedState: .billingRetry)
        let overtaken = AppleChange(
            originalTransactionId: "c", playerId: "ann", action: "failRenewal grace", at: now.addingTimeInterval(5),
            expectedState: .gracePeriod)
        let history = [
            // An older change of the chain, and one for another player, do not count.
            EntitlementChange(
                playerId: "ann", originalTransactionId: "c", state: .active,
                until: now.addingTimeInterval(30 * day), at: now.addingTimeInterval(-1)),
            EntitlementChange(
                playerId: "bob", originalTransactionId: "c", state: .active,
                until: now.addingTimeInterval(30 * day), at: now.addingTimeInterval(1)),
            EntitlementChange(
                playerId: "ann", originalTransactionId: "c", state: .active,
                until: now.addingTimeInterval(30 * day), at: now.addingTimeInterval(2.5)),
            EntitlementChange(
                playerId: "ann", originalTransactionId: "c", state: .billingRetry, until: nil,
                at: now.addingTimeInterval(14)),
        ]
        let lag = EntitlementLag.measure(changes: [renewal, failure, overtaken], history: history)
        #expect(lag.measured == 2)
        #expect(lag.unmeasured == 1)
        #expect(abs(lag.maximumSeconds - 4) < 0.001)
        #expect(lag.worst == failure)
    }
}
