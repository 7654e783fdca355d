import Ledger
import OrderSimulation
import PurchaseServer
import Testing

/// The oracle on hand-made ledgers: each invariant broken once is caught, and only that one.
@Suite struct IntegrityOracleTests {
    private let oracle = IntegrityOracle { ProductCatalog.sample.product($0)?.grants }

    private func charge(_ id: String, payer: String = "ann", quantity: Int = 1, refunded: Bool = false) -> Charge {
        Charge(transactionId: id, productId: "coins100", quantity: quantity, payer: payer, refunded: refunded)
    }

    private func delivery(
        _ id: String, to player: String = "ann", coins: Int64 = 100, status: PurchaseStatus = .delivered
    ) -> LedgerDelivery {
        LedgerDelivery(transactionId: id, playerId: player, status: status, net: coins == 0 ? [:] : ["coins": coins])
    }

    @Test func aLedgerThatMatchesTheChargesHolds() {
        let verdict = oracle.judge(
            charges: [
                charge("t1"), charge("t2", quantity: 3), charge("t3", refunded: true), charge("t4", refunded: true),
            ],
            ledger: [delivery("t1"), delivery("t2", coins: 300), delivery("t3", coins: 0, status: .refunded)])
        #expect(verdict.holds)
        #expect(verdict.counts.charged == 4)
        #expect(verdict.counts.delivered == 3)
        #expect(verdict.counts.refunded == 2)
        #expect(
            verdict.counts.lost == 0 && verdict.counts.duplicates == 0 && verdict.counts.wrongPlayer == 0
                && verdict.counts.forgedDelivered == 0)
    }

    @Test func eachBrokenInvariantIsCaughtOnItsTransaction() {
        let verdict = oracle.judge(
            charges: [
                charge("never-delivered"), charge("granted-twice"), charge("refund-kept", refunded: true),
                charge("to-bob"), charge("short", quantity: 2),
            ],
            ledger: [
                delivery("granted-twice", coins: 200), delivery("refund-kept"), delivery("to-bob", to: "bob"),
                delivery("short"), delivery("invented", to: "mallory"),
            ])
        #expect(!verdict.holds)
        let found = Dictionary(grouping: verdict.violations, by: \.kind).mapValues { $0.map(\.transactionId).sorted() }
        #expect(found[.lost] == ["never-delivered", "short"])
        #expect(found[.duplicate] == ["granted-twice", "refund-kept"])
        #expect(found[.wrongPlayer] == ["to-bob"])
        #expect(found[.forgedDelivered] == ["invented"])
        #expect(
            verdict.counts.lost == 2 && verdict.counts.duplicates == 2 && verdict.counts.wrongPlayer == 1
                && verdict.counts.forgedDelivered == 1)
        #expect(verdict.counts.delivered == 4)
    }

    @Test func aChargeNobodyIsKnownToHavePaidIsAWrongPlayerWhenDelivered() {
        let verdict = oracle.judge(
            charges: [Charge(transactionId: "t1", productId: "potion", quantity: 1, payer: nil, refunded: false)],
            ledger: [LedgerDelivery(transactionId: "t1", playerId: "ann", status: .delivered, net: ["potion": 1])])
        #expect(verdict.violations.map(\.kind) == [.wrongPlayer])
    }

    /// Google's refund of a purchase nobody acknowledged within three days is a violation of
    /// its own, even though the ledger took the goods back and so lost and doubled nothing.
    @Test func aPurchaseGoogleRefundedForWantOfAcknowledgementIsCaught() {
        let verdict = oracle.judge(
            charges: [
                Charge(
                    transactionId: "GPA.1", productId: "coins100", quantity: 1, payer: "ann", refunded: true,
                    refundedUnacknowledged: true),
                Charge(transactionId: "GPA.2", productId: "coins100", quantity: 1, payer: "ann", refunded: true),
            ],
            ledger: [delivery("GPA.1", coins: 0, status: .refunded), delivery("GPA.2", coins: 0, status: .refunded)])
        #expect(!verdict.holds)
        #expect(verdict.violations.map(\.kind) == [.refundedUnacknowledged])
        #expect(verdict.violations.map(\.transactionId) == ["GPA.1"])
        #expect(verdict.counts.refundedUnacknowledged == 1)
        #expect(!verdict.counts.holds)
        #expect(verdict.counts.lost == 0 && verdict.counts.duplicates == 0)
    }
}
