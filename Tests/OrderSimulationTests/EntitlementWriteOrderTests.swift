import Foundation
import Ledger
import OrderSimulation
import Testing

/// The ledger's entitlement changes judged in the order it wrote them: a transaction that
/// began first may take a chain's lock second (found on PostgreSQL: a billing recovery began
/// 2 ms before the grace-period notice it followed, and the oracle called the recovered
/// period not entitled).
@Suite struct EntitlementWriteOrderTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let day: TimeInterval = 86_400

    private func change(
        _ transaction: String, state: EntitlementState = .active, untilDays: Double, atDays: Double,
        sequence: Int64?, chain: String = "c"
    ) -> EntitlementChange {
        EntitlementChange(
            playerId: "ann", originalTransactionId: chain, productId: "vip.monthly", transactionId: transaction,
            state: state, until: now.addingTimeInterval(untilDays * day), at: now.addingTimeInterval(atDays * day),
            sequence: sequence)
    }

    /// The first period, its grace-period notice (written first, begun second), and the
    /// recovered period (begun first, written second).
    private var history: [EntitlementChange] {
        [
            change("p1", untilDays: -10, atDays: -40, sequence: 1),
            change("p2", untilDays: 20, atDays: -9.9, sequence: 3),
            change("p1", state: .gracePeriod, untilDays: -9.5, atDays: -9.8, sequence: 2),
        ]
    }

    @Test func changesAreOrderedByTheirWritesAndNoneSeenBeforeAnEarlierWriteBegan() {
        let ordered = EntitlementChange.inWriteOrder(history)
        #expect(ordered.map(\.sequence) == [1, 2, 3])
        #expect(ordered.map(\.at) == [-40, -9.8, -9.8].map { now.addingTimeInterval($0 * day) })
    }

    @Test func withoutSequencesAChainKeepsTheOrderOfItsTimes() {
        let unsequenced = history.map { change -> EntitlementChange in
            var change = change
            change.sequence = nil
            return change
        }
        let ordered = EntitlementChange.inWriteOrder(
            unsequenced + [change("q1", untilDays: 5, atDays: -1, sequence: 7, chain: "b")])
        #expect(ordered.map(\.transactionId) == ["q1", "p1", "p2", "p1"])
        #expect(ordered.dropFirst().map(\.at) == [-40, -9.9, -9.8].map { now.addingTimeInterval($0 * day) })
    }

    @Test func theRecoveredPeriodHoldsInWriteOrderAndNotInTheOrderTransactionsBegan() {
        let oracle = EntitlementOracle(tolerance: 1, lagBound: day)
        let purchase = { (days: Double) in now.addingTimeInterval(days * day) }
        let periods = [
            PaidPeriod(
                transactionId: "p1", originalTransactionId: "c", productId: "vip.monthly", purchaseDate: purchase(-40),
                expiresDate: purchase(-10), standing: true, holders: ["ann"]),
            PaidPeriod(
                transactionId: "p2", originalTransactionId: "c", productId: "vip.monthly", purchaseDate: purchase(-10),
                expiresDate: purchase(20), standing: true, holders: ["ann"]),
        ]
        let row = Entitlement(
            store: .appStore,
            originalTransactionId: "c", playerId: "ann", entitlementId: "vip", productId: "vip.monthly",
            productType: .autoRenewable, transactionId: "p2", state: .active, since: purchase(-40),
            until: purchase(20), autoRenew: true, autoRenewProductId: "vip.monthly", ownership: .purchased,
            environment: .sandbox, signedAt: now, updatedAt: now)
        let apple = AppleEntitlement(
            originalTransactionId: "c", status: "active", entitles: true, entitledUntil: purchase(20))
        let judge = { (history: [EntitlementChange]) in
            oracle.judge(periods: periods, apple: [apple], ledger: [row], history: history, at: now)
        }
        #expect(judge(EntitlementChange.inWriteOrder(history)).holds)
        #expect(judge(history).violations.map(\.kind) == [.periodNotEntitled])
    }
}
