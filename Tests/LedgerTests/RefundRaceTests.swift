import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// The refund state of a transaction and its delivery are decided in one database
/// transaction under the transaction id's refund-state lock: each test pauses one ledger
/// instance right after it read the refund state (before it wrote its decision), lets a
/// second instance on the same database intrude at exactly that moment, and checks that
/// the intruder had to wait and that the end state is Apple's latest word.
///
/// Against a ledger whose read and write are separate transactions (the server before
/// this design), or without the lock on PostgreSQL, every test here fails: the intruder
/// runs to its end inside the window and acts on a state about to change.
@Suite
struct RefundRaceTests {
    @Test("a refund notified while its delivery is being written reverses the delivery", arguments: StoreKind.allCases)
    func refundDuringDelivery(kind: StoreKind) async throws {
        let delivery = Fixture.delivery()
        let transactionId = delivery.transactionId
        try await withInterleavedStores(kind, at: .refundStateRead(transactionId: transactionId)) {
            paused, intruder, interleaving in
            interleaving.intrude {
                try await Self.notice(intruder, transactionId, "REFUND", signedAt: 1_000)
                let settlement = try await intruder.settleRefundState(transactionId: transactionId, reason: "REFUND")
                guard case .reversed = settlement else {
                    Issue.record("the refund found nothing to reverse: \(settlement)")
                    return
                }
            }
            guard case .delivered = try await paused.deliver(delivery) else {
                Issue.record("the delivery paused before the refund was recorded must deliver")
                return
            }
            try await interleaving.intruderResult()
            #expect(interleaving.intrusion == .waited)
            #expect(try await paused.purchase(transactionId: transactionId)?.status == .refunded)
            #expect(try await paused.wallet(playerId: "player-1")["coins"] == 0)
        }
    }

    @Test("a delivery of a refunded transaction waits for the reversal being settled", arguments: StoreKind.allCases)
    func reversalDuringRefusedDelivery(kind: StoreKind) async throws {
        let delivery = Fixture.delivery()
        let transactionId = delivery.transactionId
        try await withInterleavedStores(kind, at: .refundStateRead(transactionId: transactionId)) {
            paused, intruder, interleaving in
            try await Self.notice(paused, transactionId, "REFUND", signedAt: 1_000)
            interleaving.intrude {
                // What the intake does with a REFUND_REVERSED of a never-delivered transaction.
                try await Self.notice(intruder, transactionId, "REFUND_REVERSED", signedAt: 2_000)
                let settlement = try await intruder.settleRefundState(
                    transactionId: transactionId, reason: "REFUND_REVERSED")
                #expect(settlement == .unknownTransaction)
                guard case .delivered = try await intruder.deliver(delivery) else {
                    Issue.record("the reversal's delivery must deliver")
                    return
                }
            }
            await #expect(throws: LedgerError.transactionRevoked(transactionId: transactionId)) {
                try await paused.deliver(delivery)
            }
            try await interleaving.intruderResult()
            #expect(interleaving.intrusion == .waited)
            #expect(try await paused.purchase(transactionId: transactionId)?.status == .delivered)
            #expect(try await paused.wallet(playerId: "player-1")["coins"] == 100)
            #expect(try await paused.ledgerEntries(playerId: "player-1").map(\.kind) == [.grant])
        }
    }

    @Test(
        "a refund reversal notified while the refund is being settled leaves the purchase delivered",
        arguments: StoreKind.allCases)
    func reversalDuringRefundSettlement(kind: StoreKind) async throws {
        let delivery = Fixture.delivery()
        let transactionId = delivery.transactionId
        try await withInterleavedStores(kind, at: .refundStateRead(transactionId: transactionId)) {
            paused, intruder, interleaving in
            _ = try await paused.deliver(delivery)
            try await Self.notice(paused, transactionId, "REFUND", signedAt: 1_000)
            interleaving.intrude {
                try await Self.notice(intruder, transactionId, "REFUND_REVERSED", signedAt: 2_000)
                let settlement = try await intruder.settleRefundState(
                    transactionId: transactionId, reason: "REFUND_REVERSED")
                guard case .regranted = settlement else {
                    Issue.record("the reversal found nothing to grant again: \(settlement)")
                    return
                }
            }
            guard case .reversed = try await paused.settleRefundState(transactionId: transactionId, reason: "REFUND")
            else {
                Issue.record("the refund read before the reversal must reverse")
                return
            }
            try await interleaving.intruderResult()
            #expect(interleaving.intrusion == .waited)
            #expect(try await paused.purchase(transactionId: transactionId)?.status == .delivered)
            #expect(try await paused.wallet(playerId: "player-1")["coins"] == 100)
            #expect(
                try await paused.ledgerEntries(playerId: "player-1").map(\.kind) == [.grant, .refund, .refundReversed])
        }
    }

    @Test(
        "a revocation notified while a refund reversal is being settled leaves the purchase refunded",
        arguments: StoreKind.allCases)
    func revocationDuringReversalSettlement(kind: StoreKind) async throws {
        let delivery = Fixture.delivery()
        let transactionId = delivery.transactionId
        try await withInterleavedStores(kind, at: .refundStateRead(transactionId: transactionId)) {
            paused, intruder, interleaving in
            _ = try await paused.deliver(delivery)
            try await Self.notice(paused, transactionId, "REFUND", signedAt: 1_000)
            _ = try await paused.settleRefundState(transactionId: transactionId, reason: "REFUND")
            try await Self.notice(paused, transactionId, "REFUND_REVERSED", signedAt: 2_000)
            interleaving.intrude {
                try await Self.notice(intruder, transactionId, "REVOKE", signedAt: 3_000)
                let settlement = try await intruder.settleRefundState(transactionId: transactionId, reason: "REVOKE")
                guard case .reversed = settlement else {
                    Issue.record("the revocation found nothing to reverse: \(settlement)")
                    return
                }
            }
            guard
                case .regranted = try await paused.settleRefundState(
                    transactionId: transactionId, reason: "REFUND_REVERSED")
            else {
                Issue.record("the reversal read before the revocation must grant again")
                return
            }
            try await interleaving.intruderResult()
            #expect(interleaving.intrusion == .waited)
            #expect(try await paused.purchase(transactionId: transactionId)?.status == .refunded)
            #expect(try await paused.wallet(playerId: "player-1")["coins"] == 0)
        }
    }

    @Test("a refund notice signed before the latest recorded word changes nothing", arguments: StoreKind.allCases)
    func staleNoticeChangesNothing(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery()
            let transactionId = delivery.transactionId
            _ = try await store.deliver(delivery)
            // The reversal (signed later) arrives first; the refund it undoes arrives second.
            try await Self.notice(store, transactionId, "REFUND_REVERSED", signedAt: 2_000)
            #expect(try await store.settleRefundState(transactionId: transactionId, reason: "x") != .unknownTransaction)
            try await Self.notice(store, transactionId, "REFUND", signedAt: 1_000)
            guard
                case .unchanged(let purchase) = try await store.settleRefundState(
                    transactionId: transactionId, reason: "REFUND")
            else {
                Issue.record("a stale refund must not reverse")
                return
            }
            #expect(purchase.status == .delivered)
            #expect(try await store.wallet(playerId: "player-1")["coins"] == 100)
        }
    }

    /// Records a refund-state notification for `transactionId`, signed at `signedAt` ms.
    static func notice(_ store: any LedgerStore, _ transactionId: String, _ type: String, signedAt: Int64)
        async throws
    {
        let recorded = try await store.recordNotification(
            notificationUUID: UUID().uuidString, type: type, subtype: nil, transactionId: transactionId,
            signedDate: Date(timeIntervalSince1970: Double(signedAt) / 1_000), receivedAt: Date())
        #expect(recorded)
    }
}
