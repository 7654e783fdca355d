import Ledger
import OrderSimulation
import PurchaseServer
import Testing

/// Telling a purchase still in flight from a lost one, on hand-made verdicts: a violation
/// whose transaction still waits for something is never counted, nor dropped.
@Suite struct InFlightClassificationTests {
    private let oracle = IntegrityOracle { ProductCatalog.sample.product($0)?.grants }

    private func charge(_ id: String, refunded: Bool = false) -> Charge {
        Charge(transactionId: id, productId: "coins100", quantity: 1, payer: "ann", refunded: refunded)
    }

    private func delivery(_ id: String, coins: Int64 = 100) -> LedgerDelivery {
        LedgerDelivery(transactionId: id, playerId: "ann", status: .delivered, net: ["coins": coins])
    }

    @Test func aChargeItsDeviceStillHoldsUnfinishedIsInFlightNotLost() throws {
        let verdict = oracle.judge(charges: [charge("t1"), charge("t2")], ledger: [delivery("t2")])
            .separatingInFlight(waits: [
                "t1": [
                    PurchaseWait(.unfinishedTransaction, "unfinished in the store on device-3"),
                    PurchaseWait(.journal, "device-3 journal: reported for ann, 4 failed attempts"),
                ]
            ])
        #expect(verdict.holds)
        #expect(!verdict.isConclusive)
        #expect(verdict.counts.lost == 0)
        #expect(verdict.counts.inFlight == 1)
        #expect(verdict.counts.charged == 2 && verdict.counts.delivered == 1)
        let purchase = try #require(verdict.inFlight.first)
        #expect(purchase.transactionId == "t1")
        #expect(purchase.wouldBe == .lost)
        #expect(purchase.waits.map(\.kind) == [.unfinishedTransaction, .journal])
    }

    @Test func aChargeNothingWorksOnAnyMoreIsLost() {
        let verdict = oracle.judge(charges: [charge("t1"), charge("t2")], ledger: [])
            .separatingInFlight(waits: ["t2": [PurchaseWait(.notification, "ONE_TIME_CHARGE u1: 1 of 6 attempts")]])
        #expect(!verdict.holds)
        #expect(verdict.violations.map(\.transactionId) == ["t1"])
        #expect(verdict.violations.map(\.kind) == [.lost])
        #expect(verdict.counts.lost == 1)
        #expect(verdict.counts.inFlight == 1)
        #expect(verdict.inFlight.map(\.transactionId) == ["t2"])
    }

    @Test func waitsOfTransactionsThatAreFineChangeNothing() {
        let verdict = oracle.judge(charges: [charge("t1")], ledger: [delivery("t1")])
            .separatingInFlight(waits: ["t1": [PurchaseWait(.journal, "device-0 journal: delivered")]])
        #expect(verdict.holds)
        #expect(verdict.isConclusive)
        #expect(verdict.counts.inFlight == 0)
    }

    @Test func aRefundNotYetDeliveredMakesADuplicateInFlight() {
        let verdict = oracle.judge(charges: [charge("t1", refunded: true)], ledger: [delivery("t1")])
            .separatingInFlight(waits: ["t1": [PurchaseWait(.notification, "REFUND u2: 0 of 6 attempts")]])
        #expect(verdict.holds)
        #expect(verdict.counts.duplicates == 0)
        #expect(verdict.inFlight.first?.wouldBe == .duplicate)
    }

    @Test func aFailedReconcilerPassKeepsEveryOffenderInFlight() {
        let verdict = oracle.judge(charges: [charge("t1"), charge("t2")], ledger: [delivery("t2", coins: 200)])
            .separatingInFlight(waits: [
                "t1": [PurchaseWait(.reconciler, "last pass failed: HTTP 500")],
                "t2": [PurchaseWait(.reconciler, "last pass failed: HTTP 500")],
            ])
        #expect(verdict.holds)
        #expect(verdict.counts.inFlight == 2)
        #expect(Set(verdict.inFlight.compactMap(\.wouldBe)) == [.lost, .duplicate])
    }

    @Test func anUnchargedPurchaseWaitingForAParentIsInFlight() {
        let pending = InFlightPurchase(
            transactionId: nil, appAccountToken: "token-1", wouldBe: nil, detail: "not charged yet",
            waits: [PurchaseWait(.askToBuy, "Ask to Buy p1 on device-2, potion")])
        let verdict = oracle.judge(charges: [], ledger: []).separatingInFlight(waits: [:], uncharged: [pending])
        #expect(verdict.holds)
        #expect(!verdict.isConclusive)
        #expect(verdict.counts.inFlight == 1)
        #expect(verdict.inFlight == [pending])
    }

    /// Google's refund for want of acknowledgement cannot be undone: whatever still works on
    /// the purchase, the violation stands.
    @Test func aRefundForWantOfAcknowledgementIsNeverInFlight() {
        let verdict = oracle.judge(
            charges: [
                Charge(
                    transactionId: "GPA.1", productId: "coins100", quantity: 1, payer: "ann", refunded: true,
                    refundedUnacknowledged: true)
            ], ledger: []
        )
        .separatingInFlight(waits: ["GPA.1": [PurchaseWait(.journal, "android-0 journal: reported for ann")]])
        #expect(verdict.isConclusive)
        #expect(verdict.violations.map(\.kind) == [.refundedUnacknowledged])
        #expect(verdict.counts.refundedUnacknowledged == 1)
    }
}
