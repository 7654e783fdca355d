import Foundation
import Ledger

/// Compares what Apple sold with the entitlements the server's ledger keeps, chain by
/// chain, once the run has settled (after the reconciler's quiesce pass):
///
/// - every chain Apple entitles at the end is held, and entitling, by the player who must
///   hold it (the buyer, or the family member it was shared with);
/// - every paid period that still stands was entitled to its holder, by the ledger's
///   history replayed in time order, without a gap from the ledger's first change backed
///   by the period's own transaction (or, without one, from the stretch that reaches the
///   period's end) to its end (less ``tolerance``; a period Apple gives no end, until
///   now), that start no later than the period's start plus ``lagBound``. A period no
///   longer than ``lagBound`` the ledger learnt of only after its end (a lost notification
///   recovered later) is counted in ``EntitlementVerdict/periodsEntitledAfterTheirEnd``;
/// - every entitlement the ledger calls entitling at the end is backed by a chain Apple
///   entitles too, and ends no later than Apple's expiry plus grace period.
public struct EntitlementOracle: Sendable {
    /// How far the ledger's `until` may pass Apple's (dates travel as milliseconds), and
    /// how far before a period's end its entitlement may stop.
    public var tolerance: TimeInterval
    /// How long after a period starts the ledger may take to entitle it.
    public var lagBound: TimeInterval

    /// Creates an oracle.
    public init(tolerance: TimeInterval = 1, lagBound: TimeInterval = 0) {
        self.tolerance = tolerance
        self.lagBound = lagBound
    }

    /// Judges the ledger's entitlements (`ledger`, every row of every player of the run, and
    /// `history`, their recorded changes) against Apple's periods and Apple's word at `now`.
    public func judge(
        periods: [PaidPeriod], apple: [AppleEntitlement], ledger: [Entitlement], history: [EntitlementChange],
        at now: Date
    ) -> EntitlementVerdict {
        let chains = Dictionary(grouping: periods, by: \.originalTransactionId)
        let appleByChain = Dictionary(apple.map { ($0.originalTransactionId, $0) }, uniquingKeysWith: { $1 })
        let rows = Dictionary(ledger.map { ($0.originalTransactionId, $0) }, uniquingKeysWith: { first, _ in first })
        let changes = Dictionary(grouping: history, by: \.originalTransactionId)
        var violations: [EntitlementViolation] = []
        var periodLags: [TimeInterval] = []
        var entitledAfterTheirEnd = 0
        for (chain, periods) in chains.sorted(by: { $0.key < $1.key }) {
            let judged = judge(
                chain: chain, periods: periods, apple: appleByChain[chain], row: rows[chain],
                changes: changes[chain] ?? [], at: now)
            violations += judged.violations
            periodLags += judged.lags
            entitledAfterTheirEnd += judged.entitledAfterTheirEnd
        }
        let entitling = ledger.filter { $0.isEntitled(at: now) }
        for row in entitling.sorted(by: { $0.originalTransactionId < $1.originalTransactionId }) {
            violations += judgeEntitling(row, apple: appleByChain[row.originalTransactionId])
        }
        var verdict = EntitlementVerdict(
            chains: chains.count, periods: periods.count, standingPeriods: periods.count(where: \.standing),
            entitledByApple: apple.count(where: \.entitles), entitledByLedger: entitling.count,
            violations: violations)
        verdict.periodsEntitledInTime = periodLags.count
        verdict.periodsEntitledAfterTheirEnd = entitledAfterTheirEnd
        verdict.longestPeriodLagSeconds = periodLags.max() ?? 0
        return verdict
    }

    /// The right player holds the chain, entitled when Apple entitles, and was entitled to
    /// each standing period.
    private func judge(
        chain: String, periods: [PaidPeriod], apple: AppleEntitlement?, row: Entitlement?,
        changes: [EntitlementChange], at now: Date
    ) -> (violations: [EntitlementViolation], lags: [TimeInterval], entitledAfterTheirEnd: Int) {
        let holders = periods.first(where: { !$0.holders.isEmpty })?.holders ?? []
        let holder = holders.last
        var violations: [EntitlementViolation] = []
        if let row, row.playerId != holder {
            violations.append(
                EntitlementViolation(
                    kind: .wrongHolder, originalTransactionId: chain, playerId: row.playerId,
                    detail: "\(row.productId): held by \(row.playerId), must be \(holder ?? "nobody known")"))
        }
        if let apple, apple.entitles, let holder {
            if let row {
                if row.playerId == holder && !row.isEntitled(at: now) {
                    violations.append(
                        EntitlementViolation(
                            kind: .notEntitled, originalTransactionId: chain, playerId: holder,
                            detail: "\(row.productId): Apple says \(apple.status), the ledger \(Self.describe(row))"))
                }
            } else {
                violations.append(
                    EntitlementViolation(
                        kind: .notEntitled, originalTransactionId: chain, playerId: holder,
                        detail: "Apple says \(apple.status), the ledger has no entitlement"))
            }
        }
        let own = changes.filter { holders.contains($0.playerId) }
        let intervals = Self.entitledIntervals(own)
        var lags: [TimeInterval] = []
        var entitledAfterTheirEnd = 0
        for period in periods.sorted(by: { $0.purchaseDate < $1.purchaseDate }) where period.standing {
            guard !holders.isEmpty else { continue }
            // A period Apple gives no end must be entitled until now (inclusive).
            let end =
                period.expiresDate?.addingTimeInterval(-tolerance)
                ?? max(period.purchaseDate, now).addingTimeInterval(0.001)
            let start = period.purchaseDate
            guard start < end else { continue }
            let name =
                "\(period.productId) period \(period.transactionId) "
                + "[\(start.ms), \(period.expiresDate.map { "\($0.ms)" } ?? "-"))"
            let players = holders.joined(separator: " or ")
            // From the ledger's first change backed by the period's own transaction, its
            // holder must stay entitled to its end; before that, a lag. (A refund Apple
            // reversed left a gap Apple made: such a period is held to the stretch that
            // reaches its end.)
            let arrival = own.filter { $0.transactionId == period.transactionId }.map(\.at).min()
            let entitledFrom: Date
            if let arrival, arrival < end, !period.refundReversed {
                // The lag counts from where the stretch holding the arrival began (a grace
                // period may have covered a recovered period's back-dated start).
                entitledFrom = Self.stretchStart(in: intervals, containing: max(start, arrival), from: start)
                if let gap = Self.firstGap(in: intervals, from: max(start, arrival), to: end) {
                    violations.append(
                        EntitlementViolation(
                            kind: .periodNotEntitled, originalTransactionId: chain, playerId: holder,
                            detail: "\(name) recorded for \(players) at \(arrival.ms), then not entitled at \(gap.ms)"))
                    continue
                }
            } else if let stretch = Self.finalStretch(in: intervals, from: start, to: end) {
                entitledFrom = stretch
            } else {
                if end.timeIntervalSince(start) <= lagBound {
                    entitledAfterTheirEnd += 1
                } else {
                    violations.append(
                        EntitlementViolation(
                            kind: .periodNotEntitled, originalTransactionId: chain, playerId: holder,
                            detail: "\(name) not entitled to \(players) at its end, "
                                + "though longer than the \(lagBound) s lag bound"))
                }
                continue
            }
            let lag = entitledFrom.timeIntervalSince(start)
            lags.append(lag)
            if lag > lagBound {
                violations.append(
                    EntitlementViolation(
                        kind: .periodNotEntitled, originalTransactionId: chain, playerId: holder,
                        detail: "\(name) entitled to \(players) without a gap to its end only from "
                            + "\(entitledFrom.ms), past the period's start plus the \(lagBound) s lag bound"))
            }
        }
        return (violations, lags, entitledAfterTheirEnd)
    }

    /// An entitlement the ledger calls entitling is one Apple entitles too, no longer.
    private func judgeEntitling(_ row: Entitlement, apple: AppleEntitlement?) -> [EntitlementViolation] {
        guard let apple else {
            return [
                EntitlementViolation(
                    kind: .unbacked, originalTransactionId: row.originalTransactionId, playerId: row.playerId,
                    detail: "\(row.productId): the ledger \(Self.describe(row)), Apple never sold the chain")
            ]
        }
        let pastApple: Bool =
            if !apple.entitles {
                true
            } else if let appleUntil = apple.entitledUntil {
                row.until.map { $0 > appleUntil.addingTimeInterval(tolerance) } ?? true
            } else {
                false
            }
        guard pastApple else { return [] }
        let appleEnd = apple.entitledUntil.map { " until \($0.ms)" } ?? ""
        return [
            EntitlementViolation(
                kind: .entitledPastApple, originalTransactionId: row.originalTransactionId, playerId: row.playerId,
                detail: "\(row.productId): the ledger \(Self.describe(row)), Apple says \(apple.status)\(appleEnd)")
        ]
    }

    /// The spans the ledger's history entitled a chain's holders, as half-open
    /// `[from, to)`: each change of a holder entitles from its `at` until that holder's next
    /// change, while its state entitles and no later than its `until`.
    static func entitledIntervals(_ changes: [EntitlementChange]) -> [(from: Date, to: Date)] {
        var intervals: [(from: Date, to: Date)] = []
        for (_, own) in Dictionary(grouping: changes, by: \.playerId) {
            // Stable: changes written in the same millisecond keep their recorded order.
            let ordered = own.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
                .map(\.element)
            for (index, change) in ordered.enumerated() where change.state.entitles {
                let next = index + 1 < ordered.count ? ordered[index + 1].at : Date.distantFuture
                let to = min(next, change.until ?? .distantFuture)
                if change.at < to { intervals.append((change.at, to)) }
            }
        }
        return intervals.sorted { $0.from < $1.from }
    }

    /// Where the covered stretch holding `date` begins (no earlier than `from`); `date` when
    /// no interval covers it.
    static func stretchStart(in intervals: [(from: Date, to: Date)], containing date: Date, from: Date) -> Date {
        var stretchStart: Date?
        var stretchEnd = Date.distantPast
        for interval in intervals where interval.from <= date {
            if stretchStart == nil || interval.from > stretchEnd { stretchStart = interval.from }
            stretchEnd = max(stretchEnd, interval.to)
        }
        guard let stretchStart, stretchEnd > date else { return date }
        return max(stretchStart, from)
    }

    /// Where the covered stretch of `[from, to)` that reaches `to` without a gap begins
    /// (no earlier than `from`), or `nil` when the instant before `to` is not covered.
    static func finalStretch(in intervals: [(from: Date, to: Date)], from: Date, to: Date) -> Date? {
        var stretchStart: Date?
        var stretchEnd = Date.distantPast
        for interval in intervals where interval.to > from && interval.from < to {
            if stretchStart == nil || interval.from > stretchEnd { stretchStart = interval.from }
            stretchEnd = max(stretchEnd, interval.to)
        }
        guard let stretchStart, stretchEnd >= to else { return nil }
        return max(stretchStart, from)
    }

    /// The first instant of `[from, to)` no interval covers, or `nil` when they cover it all.
    static func firstGap(in intervals: [(from: Date, to: Date)], from: Date, to: Date) -> Date? {
        var covered = from
        for interval in intervals where interval.to > covered {
            if interval.from > covered { return covered }
            covered = interval.to
            if covered >= to { return nil }
        }
        return covered < to ? covered : nil
    }

    private static func describe(_ row: Entitlement) -> String {
        "has \(row.playerId) \(row.state.rawValue) until \(row.until.map { "\($0.ms)" } ?? "forever")"
    }
}

extension Date {
    /// Milliseconds since 1970, as Apple and the ledger write dates.
    var ms: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
