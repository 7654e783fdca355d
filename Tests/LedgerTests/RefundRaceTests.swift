import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// The refund state of a transaction and its delivery are decided in one database
/// transaction under the transaction id's transaction lock: each test pauses one ledger
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
        try await withInterleavedStores(kind, at: .refundNoticesRead(transactionId: transactionId)) {
            paused, intruder, interleaving in
            interleaving.intrude {
                let settlement = try await Self.settle(intruder, transactionId, "REFUND", signedAt: 1_000)
                #expect(settlement.outcome == "reversed", "the refund found nothing to reverse")
            }
            guard case .delivered = try await paused.deliver(delivery) else {
                Issue.record("the delivery paused before the refund was recorded must deliver")
                return
            }
            try await Self.expectEnd(paused, interleaving, transactionId, status: .refunded, coins: 0)
        }
    }

    @Test("a delivery of a refunded transaction waits for the reversal being settled", arguments: StoreKind.allCases)
    func reversalDuringRefusedDelivery(kind: StoreKind) async throws {
        let delivery = Fixture.delivery()
        let transactionId = delivery.transactionId
        try await withInterleavedStores(kind, at: .refundNoticesRead(transactionId: transactionId)) {
            paused, intruder, interleaving in
            try await Self.notice(paused, transactionId, "REFUND", signedAt: 1_000)
            interleaving.intrude {
                // What the intake does with a REFUND_REVERSED of a never-delivered transaction.
                let settlement = try await Self.settle(intruder, transactionId, "REFUND_REVERSED", signedAt: 2_000)
                #expect(settlement == .unknownTransaction)
                guard case .delivered = try await intruder.deliver(delivery) else {
                    Issue.record("the reversal's delivery must deliver")
                    return
                }
            }
            await #expect(throws: LedgerError.transactionRevoked(transactionId: transactionId)) {
                try await paused.deliver(delivery)
            }
            try await Self.expectEnd(paused, interleaving, transactionId, status: .delivered, coins: 100)
            #expect(try await paused.ledgerEntries(playerId: "player-1").map(\.kind) == [.grant])
        }
    }

    /// One refund-state notice being settled while a later-signed one arrives.
    struct SettlementRace: Sendable, CustomTestStringConvertible {
        /// Notices recorded and settled before (type, signed at).
        var before: [(String, Int64)]
        /// The notice whose settlement pauses after its read, and what it must do.
        var paused: (String, Int64, outcome: String)
        /// The later-signed notice recorded and settled inside the window, and what it must do.
        var intruder: (String, Int64, outcome: String)
        var endStatus: PurchaseStatus
        var endCoins: Int64

        var testDescription: String { "\(intruder.0) during \(paused.0)" }

        static let all = [
            SettlementRace(
                before: [], paused: ("REFUND", 1_000, "reversed"), intruder: ("REFUND_REVERSED", 2_000, "regranted"),
                endStatus: .delivered, endCoins: 100),
            SettlementRace(
                before: [("REFUND", 1_000)], paused: ("REFUND_REVERSED", 2_000, "regranted"),
                intruder: ("REVOKE", 3_000, "reversed"), endStatus: .refunded, endCoins: 0),
        ]
    }

    @Test(
        "a later-signed refund-state notice arriving while one is being settled has the last word",
        arguments: StoreKind.allCases, SettlementRace.all)
    func noticeDuringSettlement(kind: StoreKind, race: SettlementRace) async throws {
        let delivery = Fixture.delivery()
        let transactionId = delivery.transactionId
        try await withInterleavedStores(kind, at: .refundNoticesRead(transactionId: transactionId)) {
            paused, intruder, interleaving in
            _ = try await paused.deliver(delivery)
            for (type, signedAt) in race.before {
                _ = try await Self.settle(paused, transactionId, type, signedAt: signedAt)
            }
            try await Self.notice(paused, transactionId, race.paused.0, signedAt: race.paused.1)
            interleaving.intrude {
                let settlement = try await Self.settle(
                    intruder, transactionId, race.intruder.0, signedAt: race.intruder.1)
                #expect(settlement.outcome == race.intruder.outcome, "the later notice must act after the first")
            }
            let settlement = try await paused.settleRefundState(
                store: .appStore, transactionId: transactionId, reason: race.paused.0)
            #expect(settlement.outcome == race.paused.outcome, "the notice read first acts on what it read")
            try await Self.expectEnd(
                paused, interleaving, transactionId, status: race.endStatus, coins: race.endCoins)
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
            #expect(
                try await store.settleRefundState(store: .appStore, transactionId: transactionId, reason: "x")
                    != .unknownTransaction)
            try await Self.notice(store, transactionId, "REFUND", signedAt: 1_000)
            guard
                case .unchanged(let purchase) = try await store.settleRefundState(
                    store: .appStore, transactionId: transactionId, reason: "REFUND")
            else {
                Issue.record("a stale refund must not reverse")
                return
            }
            #expect(purchase.status == .delivered)
            #expect(try await store.wallet(playerId: "player-1")["coins"] == 100)
        }
    }

    @Test(
        "a refund and its reversal signed in the same millisecond: the reversal is the later word, whatever the arrival order (storekeeper simulate, seed 55)",
        arguments: StoreKind.allCases)
    func reversalSignedWithItsRefund(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery()
            let transactionId = delivery.transactionId
            _ = try await store.deliver(delivery)
            // The reversal overtook its refund on the way; both carry one signedDate.
            #expect(
                try await Self.settle(store, transactionId, "REFUND_REVERSED", signedAt: 5_000).outcome == "unchanged")
            #expect(try await Self.settle(store, transactionId, "REFUND", signedAt: 5_000).outcome == "unchanged")
            #expect(try await store.purchase(store: .appStore, transactionId: transactionId)?.status == .delivered)
            #expect(try await store.wallet(playerId: "player-1")["coins"] == 100)
        }
    }

    @Test(
        "a refund, its reversal and a second refund, the last two signed in the same millisecond: the second refund is the later word, whatever the arrival order (storekeeper simulate, seed 2026)",
        arguments: StoreKind.allCases, [["REFUND_REVERSED", "REFUND"], ["REFUND", "REFUND_REVERSED"]])
    func refundAfterReversalInOneMillisecond(kind: StoreKind, arrival: [String]) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery()
            let transactionId = delivery.transactionId
            _ = try await store.deliver(delivery)
            #expect(try await Self.settle(store, transactionId, "REFUND", signedAt: 1_000).outcome == "reversed")
            for type in arrival { _ = try await Self.settle(store, transactionId, type, signedAt: 5_000) }
            #expect(try await store.purchase(store: .appStore, transactionId: transactionId)?.status == .refunded)
            #expect(try await store.wallet(playerId: "player-1")["coins"] == 0)
        }
    }

    /// Waits for the intruder and checks that it had to wait for the paused transaction and
    /// that the purchase ended as Apple's latest word says.
    static func expectEnd(
        _ store: any LedgerStore, _ interleaving: Interleaving, _ transactionId: String, status: PurchaseStatus,
        coins: Int64
    ) async throws {
        try await interleaving.intruderResult()
        #expect(interleaving.intrusion == .waited, "the intruder must wait for the paused transaction")
        #expect(try await store.purchase(store: .appStore, transactionId: transactionId)?.status == status)
        #expect(try await store.wallet(playerId: "player-1")["coins"] == coins)
    }

    /// Records a refund-state notification and settles it, as the intake does.
    static func settle(_ store: any LedgerStore, _ transactionId: String, _ type: String, signedAt: Int64)
        async throws -> RefundSettlement
    {
        try await notice(store, transactionId, type, signedAt: signedAt)
        return try await store.settleRefundState(store: .appStore, transactionId: transactionId, reason: type)
    }

    /// Records a refund-state notification for `transactionId`, signed at `signedAt` ms.
    static func notice(_ store: any LedgerStore, _ transactionId: String, _ type: String, signedAt: Int64)
        async throws
    {
        let recorded = try await store.recordNotification(
            store: .appStore,
            notificationUUID: UUID().uuidString, type: type, subtype: nil, transactionId: transactionId,
            signedDate: Date(timeIntervalSince1970: Double(signedAt) / 1_000), refund: RefundNoticeFixture.notice(type),
            receivedAt: Date())
        #expect(recorded)
    }
}

extension RefundSettlement {
    /// The case's name, for expectations.
    var outcome: String {
        switch self {
        case .reversed: "reversed"
        case .regranted: "regranted"
        case .unchanged: "unchanged"
        case .unknownTransaction: "unknownTransaction"
        }
    }
}
