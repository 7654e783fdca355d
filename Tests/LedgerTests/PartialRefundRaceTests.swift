import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// The refund race construction (see ``RefundRaceTests``) holds for refunds of part of a
/// purchase: one ledger instance pauses right after it read the refund state, a second one
/// on the same database intrudes at exactly that moment, and the test checks that the
/// intruder had to wait and that the purchase ends at Apple's latest share, taken back
/// once.
@Suite
struct PartialRefundRaceTests {
    static let grants: Grants = ["coins": 100, "potions": 3]

    @Test(
        "a partial refund notified while its delivery is being written takes back its share",
        arguments: StoreKind.allCases)
    func partialRefundDuringDelivery(kind: StoreKind) async throws {
        let delivery = Fixture.delivery(grants: Self.grants)
        let transactionId = delivery.transactionId
        try await withInterleavedStores(kind, at: .refundNoticesRead(transactionId: transactionId)) {
            paused, intruder, interleaving in
            interleaving.intrude {
                let settlement = try await RefundNoticeFixture.settle(
                    intruder, transactionId, "REFUND", share: 30_000, signedAt: 1_000)
                #expect(settlement.outcome == "reversed", "the refund found nothing to take back")
            }
            guard case .delivered(let purchase) = try await paused.deliver(delivery) else {
                Issue.record("the delivery paused before the refund was recorded must deliver")
                return
            }
            #expect(purchase.refundedShare == 0, "the delivery read no refund")
            try await Self.expectEnd(
                paused, interleaving, transactionId, share: 30_000, wallet: ["coins": 70, "potions": 3])
        }
    }

    @Test(
        "a delivery racing the settlement of a partial refund recorded before it takes the share back once",
        arguments: StoreKind.allCases)
    func deliveryDuringPartialRefundSettlement(kind: StoreKind) async throws {
        let delivery = Fixture.delivery(grants: Self.grants)
        let transactionId = delivery.transactionId
        try await withInterleavedStores(kind, at: .refundNoticesRead(transactionId: transactionId)) {
            paused, intruder, interleaving in
            try await RefundNoticeFixture.record(paused, transactionId, "REFUND", share: 30_000, signedAt: 1_000)
            interleaving.intrude {
                guard case .delivered(let purchase) = try await intruder.deliver(delivery) else {
                    Issue.record("the report must deliver what the partial refund left")
                    return
                }
                #expect(purchase.refundedShare == 30_000, "the delivery must take the recorded share back")
            }
            // The settlement read no purchase: the intake then delivers, which finds it delivered.
            #expect(
                try await paused.settleRefundState(store: .appStore, transactionId: transactionId, reason: "REFUND")
                    == .unknownTransaction)
            try await Self.expectEnd(
                paused, interleaving, transactionId, share: 30_000, wallet: ["coins": 70, "potions": 3])
            #expect(try await paused.deliver(delivery).isFirstDelivery == false)
            #expect(
                try await paused.settleRefundState(store: .appStore, transactionId: transactionId, reason: "REFUND")
                    .outcome
                    == "unchanged")
            #expect(try await paused.ledgerEntries(playerId: "player-1").map(\.amount) == [100, 3, -30])
        }
    }

    /// A refund-state notice being settled after a 30 % refund while another arrives.
    struct SettlementRace: Sendable, CustomTestStringConvertible {
        var name: String
        /// The notice whose settlement pauses after its read (type, share, signed at), and
        /// what it must do.
        var paused: (String, Int?, Int64, outcome: String)
        /// The notice recorded and settled inside the window, and what it must do.
        var intruder: (String, Int?, Int64, outcome: String)
        var endShare: Int
        var endWallet: [String: Int64]

        var testDescription: String { name }

        static let all = [
            SettlementRace(
                name: "a reversal during a second partial refund",
                paused: ("REFUND", 80_000, 2_000, "reversed"), intruder: ("REFUND_REVERSED", nil, 3_000, "regranted"),
                endShare: 0, endWallet: ["coins": 100, "potions": 3]),
            SettlementRace(
                name: "a second partial refund during a reversal",
                paused: ("REFUND_REVERSED", nil, 2_000, "regranted"), intruder: ("REFUND", 80_000, 3_000, "reversed"),
                endShare: 80_000, endWallet: ["coins": 20, "potions": 1]),
            SettlementRace(
                name: "a reversal signed before the second partial refund it arrives during",
                paused: ("REFUND", 80_000, 3_000, "reversed"), intruder: ("REFUND_REVERSED", nil, 2_000, "unchanged"),
                endShare: 80_000, endWallet: ["coins": 20, "potions": 1]),
        ]
    }

    @Test(
        "a refund-state notice arriving while another is being settled after a partial refund",
        arguments: StoreKind.allCases, SettlementRace.all)
    func noticeDuringSettlement(kind: StoreKind, race: SettlementRace) async throws {
        let delivery = Fixture.delivery(grants: Self.grants)
        let transactionId = delivery.transactionId
        try await withInterleavedStores(kind, at: .refundNoticesRead(transactionId: transactionId)) {
            paused, intruder, interleaving in
            _ = try await paused.deliver(delivery)
            _ = try await RefundNoticeFixture.settle(paused, transactionId, "REFUND", share: 30_000, signedAt: 1_000)
            try await RefundNoticeFixture.record(
                paused, transactionId, race.paused.0, share: race.paused.1, signedAt: race.paused.2)
            interleaving.intrude {
                let settlement = try await RefundNoticeFixture.settle(
                    intruder, transactionId, race.intruder.0, share: race.intruder.1, signedAt: race.intruder.2)
                #expect(settlement.outcome == race.intruder.outcome, "the intruder must act after the paused one")
            }
            let settlement = try await paused.settleRefundState(
                store: .appStore, transactionId: transactionId, reason: race.paused.0)
            #expect(settlement.outcome == race.paused.outcome, "the notice read first acts on what it read")
            try await Self.expectEnd(paused, interleaving, transactionId, share: race.endShare, wallet: race.endWallet)
        }
    }

    /// Waits for the intruder, checks that it had to wait for the paused transaction and
    /// that the purchase ended at `share` with the player holding `wallet`.
    static func expectEnd(
        _ store: any LedgerStore, _ interleaving: Interleaving, _ transactionId: String, share: Int,
        wallet: [String: Int64]
    ) async throws {
        try await interleaving.intruderResult()
        #expect(interleaving.intrusion == .waited, "the intruder must wait for the paused transaction")
        #expect(try await store.purchase(store: .appStore, transactionId: transactionId)?.refundedShare == share)
        #expect(try await store.wallet(playerId: "player-1") == wallet)
    }
}
