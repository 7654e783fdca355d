import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// Refunds of part of a purchase: Apple's cumulative refunded share, taken back of each
/// item rounded down (``RefundShare``), one movement per change of share.
extension LedgerBehaviourTests {
    @Test("30 % of 100 coins and 3 potions takes back 30 coins and no potion", arguments: StoreKind.allCases)
    func partialRefund(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery(grants: ["coins": 100, "potions": 3])
            let transactionId = delivery.transactionId
            _ = try await store.deliver(delivery)

            let settlement = try await RefundNoticeFixture.settle(
                store, transactionId, "REFUND", share: 30_000, signedAt: 1_000)
            guard case .reversed(let purchase, let posting) = settlement else {
                Issue.record("expected .reversed, got \(settlement)")
                return
            }
            #expect(purchase.refundedShare == 30_000)
            #expect(purchase.status == .delivered, "a purchase refunded in part still stands")
            #expect(purchase.refundReason == "REFUND")
            #expect(purchase.refundedAt != nil)
            #expect(posting.entries.map(\.item) == ["coins"], "no potion moves: 0.9 rounds down to 0")
            #expect(posting.entries.map(\.amount) == [-30])
            #expect(posting.entries.allSatisfy { $0.kind == .refund && $0.reason == "REFUND" })
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 70, "potions": 3])
            #expect(try await store.purchase(store: .appStore, transactionId: transactionId) == purchase)

            let event = try #require(try await store.events(transactionId: transactionId).last)
            #expect(event.type == .refunded)
            #expect(event.detail["refundedShare"] == "30000")
            #expect(event.detail["previousRefundedShare"] == "0")
            #expect(event.detail["grants"] == #"{"coins":-30}"#)
            #expect(event.detail["reason"] == "REFUND")

            let messages = try await RefundNoticeFixture.messages(store, transactionId)
            #expect(messages.count == 1)
            let message = try #require(messages.first)
            #expect(message.kind == "refund")
            #expect(message.sequence == 1)
            #expect(message.previousRefundedShare == 0)
            #expect(message.refundedShare == 30_000)
            #expect(message.grants == ["coins": -30])
            #expect(message.playerId == "player-1")
            #expect(message.reason == "REFUND")
            let outbox = try #require(try await store.outboxMessage(idempotencyKey: "\(transactionId):refund:1"))
            #expect(outbox.transactionId == transactionId)
            #expect(outbox.playerId == "player-1")
        }
    }

    @Test(
        "30 % then 80 % takes back the difference; the reversal restores exactly what was taken",
        arguments: StoreKind.allCases)
    func growingPartialRefundThenReversal(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery(grants: ["coins": 100, "potions": 3])
            let transactionId = delivery.transactionId
            _ = try await store.deliver(delivery)
            _ = try await RefundNoticeFixture.settle(store, transactionId, "REFUND", share: 30_000, signedAt: 1_000)

            guard
                case .reversed(let purchase, let posting) = try await RefundNoticeFixture.settle(
                    store, transactionId, "REFUND", share: 80_000, signedAt: 2_000)
            else {
                Issue.record("the larger share must take back the difference")
                return
            }
            #expect(purchase.refundedShare == 80_000)
            #expect(posting.entries.map(\.item) == ["coins", "potions"])
            #expect(posting.entries.map(\.amount) == [-50, -2], "80 − 30 coins; ⌊2.4⌋ − ⌊0.9⌋ potions")
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 20, "potions": 1])

            guard
                case .regranted(let restored, let given) = try await RefundNoticeFixture.settle(
                    store, transactionId, "REFUND_REVERSED", signedAt: 3_000)
            else {
                Issue.record("the reversal must give back what was taken")
                return
            }
            #expect(restored.refundedShare == 0)
            #expect(restored.status == .delivered)
            #expect(restored.refundedAt == nil)
            #expect(restored.refundReason == nil)
            #expect(given.entries.map(\.amount) == [80, 2])
            #expect(given.entries.allSatisfy { $0.kind == .refundReversed && $0.reason == nil })
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 100, "potions": 3])

            let entries = try await store.ledgerEntries(playerId: "player-1")
            #expect(
                entries.map(\.kind) == [.grant, .grant, .refund, .refund, .refund, .refundReversed, .refundReversed])
            #expect(
                try await store.events(transactionId: transactionId).map(\.type).filter { $0 != .notificationReceived }
                    == [.delivered, .refunded, .refunded, .refundReversed])
            let messages = try await RefundNoticeFixture.messages(store, transactionId)
            #expect(messages.map(\.kind) == ["refund", "refund", "refund_reversed"])
            #expect(messages.map(\.sequence) == [1, 2, 3])
            #expect(messages.map(\.refundedShare) == [30_000, 80_000, 0])
            #expect(messages.map(\.previousRefundedShare) == [0, 30_000, 80_000])
            #expect(
                messages.map(\.grants) == [
                    ["coins": -30], ["coins": -50, "potions": -2], ["coins": 80, "potions": 2],
                ])
            #expect(messages.last?.reason == nil)
        }
    }

    @Test("a whole refund after a partial one takes back the rest", arguments: StoreKind.allCases)
    func wholeRefundAfterPartial(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery(grants: ["coins": 100, "potions": 3])
            let transactionId = delivery.transactionId
            _ = try await store.deliver(delivery)
            _ = try await RefundNoticeFixture.settle(store, transactionId, "REFUND", share: 30_000, signedAt: 1_000)

            // A whole refund's transaction carries no share (REFUND_FULL): all of it.
            guard
                case .reversed(let purchase, let posting) = try await RefundNoticeFixture.settle(
                    store, transactionId, "REFUND", signedAt: 2_000)
            else {
                Issue.record("the whole refund must take back the rest")
                return
            }
            #expect(purchase.status == .refunded)
            #expect(purchase.refundedShare == RefundShare.whole)
            #expect(posting.entries.map(\.amount) == [-70, -3])
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 0, "potions": 0])
            #expect(
                try await store.reverse(store: .appStore, transactionId: transactionId, reason: "again")
                    == .alreadyReversed(purchase))

            // Given back in whole, then revoked again by Family Sharing (REVOKE: all of it).
            _ = try await RefundNoticeFixture.settle(store, transactionId, "REFUND_REVERSED", signedAt: 3_000)
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 100, "potions": 3])
            _ = try await RefundNoticeFixture.settle(
                store, transactionId, "REVOKE", share: RefundShare.whole, signedAt: 4_000)
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 0, "potions": 0])
            #expect(try await store.purchase(store: .appStore, transactionId: transactionId)?.status == .refunded)
        }
    }

    @Test("odd amounts round down: half of 1 coin takes back nothing, of 7 coins 3", arguments: StoreKind.allCases)
    func oddAmounts(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery(grants: ["coins": 1, "gems": 7])
            let transactionId = delivery.transactionId
            _ = try await store.deliver(delivery)

            guard
                case .reversed(let purchase, let posting) = try await RefundNoticeFixture.settle(
                    store, transactionId, "REFUND", share: 50_000, signedAt: 1_000)
            else {
                Issue.record("the share moves even where an item does not")
                return
            }
            #expect(purchase.refundedShare == 50_000)
            #expect(posting.entries.map(\.item) == ["gems"])
            #expect(posting.entries.map(\.amount) == [-3])
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 1, "gems": 4])

            // 99.999 % still leaves the fraction with the player; all of it takes the rest.
            _ = try await RefundNoticeFixture.settle(store, transactionId, "REFUND", share: 99_999, signedAt: 2_000)
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 1, "gems": 1])
            _ = try await RefundNoticeFixture.settle(
                store, transactionId, "REFUND", share: RefundShare.whole, signedAt: 3_000)
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 0, "gems": 0])
            _ = try await RefundNoticeFixture.settle(store, transactionId, "REFUND_REVERSED", signedAt: 4_000)
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 1, "gems": 7])

            // A change of share that moves no item is still recorded and announced.
            let messages = try await RefundNoticeFixture.messages(store, transactionId)
            #expect(messages.map(\.refundedShare) == [50_000, 99_999, RefundShare.whole, 0])
            #expect(
                messages.map(\.grants) == [
                    ["gems": -3], ["gems": -3], ["coins": -1, "gems": -1], ["coins": 1, "gems": 7],
                ])
        }
    }

    @Test("a notice received twice, or settled again, changes nothing", arguments: StoreKind.allCases)
    func duplicateNotices(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery(grants: ["coins": 100, "potions": 3])
            let transactionId = delivery.transactionId
            _ = try await store.deliver(delivery)
            let notices: [(type: String, share: Int?, signedAt: Int64, wallet: [String: Int64])] = [
                ("REFUND", 30_000, 1_000, ["coins": 70, "potions": 3]),
                ("REFUND", 80_000, 2_000, ["coins": 20, "potions": 1]),
                ("REFUND_REVERSED", nil, 3_000, ["coins": 100, "potions": 3]),
                ("REFUND", 30_000, 4_000, ["coins": 70, "potions": 3]),
                ("REFUND", nil, 5_000, ["coins": 0, "potions": 0]),
            ]
            for (index, notice) in notices.enumerated() {
                let uuid = UUID().uuidString
                #expect(
                    try await RefundNoticeFixture.record(
                        store, transactionId, notice.type, share: notice.share, signedAt: notice.signedAt, uuid: uuid))
                #expect(
                    try await store.settleRefundState(
                        store: .appStore, transactionId: transactionId, reason: notice.type
                    ).outcome
                        != "unchanged")
                let entries = try await store.ledgerEntries(playerId: "player-1").count
                let changes = try await store.events(transactionId: transactionId).count {
                    $0.type != .notificationReceived
                }

                // Apple's retry (same UUID) is not recorded; settling again finds nothing to do.
                #expect(
                    !(try await RefundNoticeFixture.record(
                        store, transactionId, notice.type, share: notice.share, signedAt: notice.signedAt, uuid: uuid)))
                for _ in 0..<2 {
                    #expect(
                        try await store.settleRefundState(
                            store: .appStore, transactionId: transactionId, reason: notice.type
                        ).outcome
                            == "unchanged")
                }
                // Another notice with the same word (a reconciler replay under a new UUID) neither.
                _ = try await RefundNoticeFixture.settle(
                    store, transactionId, notice.type, share: notice.share, signedAt: notice.signedAt)
                #expect(try await store.wallet(playerId: "player-1") == notice.wallet, "after notice \(index)")
                #expect(try await store.ledgerEntries(playerId: "player-1").count == entries)
                #expect(
                    try await store.events(transactionId: transactionId).count { $0.type != .notificationReceived }
                        == changes)
                #expect(try await RefundNoticeFixture.messages(store, transactionId).count == index + 1)
            }
        }
    }

    @Test(
        "a transaction refunded in part before delivery is delivered and its share taken back at once",
        arguments: StoreKind.allCases)
    func deliveryAfterPartialRefund(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let order = try await store.createOrder(Fixture.order())
            let delivery = Fixture.delivery(orderId: order.orderId, grants: ["coins": 100, "potions": 3])
            let transactionId = delivery.transactionId
            try await RefundNoticeFixture.record(store, transactionId, "REFUND", share: 40_000, signedAt: 1_000)
            #expect(
                try await store.settleRefundState(store: .appStore, transactionId: transactionId, reason: "REFUND")
                    == .unknownTransaction)

            guard case .delivered(let purchase) = try await store.deliver(delivery) else {
                Issue.record("a transaction refunded in part must be delivered")
                return
            }
            #expect(purchase.refundedShare == 40_000)
            #expect(purchase.status == .delivered)
            #expect(purchase.refundReason == "REFUND")
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 60, "potions": 2])
            #expect(try await store.ledgerEntries(playerId: "player-1").map(\.amount) == [100, 3, -40, -1])
            #expect(
                try await store.events(transactionId: transactionId).map(\.type) == [
                    .notificationReceived, .delivered, .refunded,
                ])
            #expect(try await store.outboxMessage(idempotencyKey: transactionId) != nil)
            #expect(
                try await RefundNoticeFixture.messages(store, transactionId).map(\.grants) == [
                    ["coins": -40, "potions": -1]
                ])
            #expect(try await store.order(id: order.orderId)?.fulfilledBy == transactionId)

            // Reported again, settled again: nothing more.
            #expect(try await store.deliver(delivery) == .alreadyDelivered(purchase))
            #expect(
                try await store.settleRefundState(store: .appStore, transactionId: transactionId, reason: "REFUND")
                    == .unchanged(purchase))
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 60, "potions": 2])

            // Refunded in whole before delivery: refused, as before partial refunds.
            let refunded = Fixture.delivery()
            try await RefundNoticeFixture.record(
                store, refunded.transactionId, "REFUND", share: 30_000, signedAt: 1_000)
            try await RefundNoticeFixture.record(store, refunded.transactionId, "REFUND", signedAt: 2_000)
            await #expect(throws: LedgerError.transactionRevoked(transactionId: refunded.transactionId)) {
                try await store.deliver(refunded)
            }
        }
    }

    @Test("reverse and regrant move a partly refunded purchase to all and to nothing", arguments: StoreKind.allCases)
    func reverseAndRegrantAfterPartial(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery(grants: ["coins": 100])
            let transactionId = delivery.transactionId
            _ = try await store.deliver(delivery)
            _ = try await RefundNoticeFixture.settle(store, transactionId, "REFUND", share: 25_000, signedAt: 1_000)

            guard
                case .reversed(_, let rest) = try await store.reverse(
                    store: .appStore, transactionId: transactionId, reason: "support")
            else {
                Issue.record("reverse must take back the rest")
                return
            }
            #expect(rest.entries.map(\.amount) == [-75])
            guard
                case .regranted(let purchase, let all) = try await store.regrant(
                    store: .appStore, transactionId: transactionId)
            else {
                Issue.record("regrant must give back all")
                return
            }
            #expect(all.entries.map(\.amount) == [100])
            #expect(purchase.refundedShare == 0)
            #expect(
                try await store.regrant(store: .appStore, transactionId: transactionId) == .alreadyGranted(purchase))
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 100])
        }
    }

    @Test("the rounding rule: the share of each amount, rounded down, without overflow")
    func roundingRule() {
        #expect(RefundShare.reversed(100, share: 30_000) == 30)
        #expect(RefundShare.reversed(3, share: 30_000) == 0)
        #expect(RefundShare.reversed(3, share: 80_000) == 2)
        #expect(RefundShare.reversed(1, share: 50_000) == 0)
        #expect(RefundShare.reversed(1, share: 99_999) == 0)
        #expect(RefundShare.reversed(7, share: RefundShare.whole) == 7)
        #expect(RefundShare.reversed(7, share: 0) == 0)
        #expect(RefundShare.reversed(Int64.max, share: RefundShare.whole) == Int64.max)
        #expect(RefundShare.reversed(Int64.max, share: 50_000) == Int64.max / 2)
        #expect(RefundShare.reversed(10, share: 250_000) == 10, "a share above all of it counts as all")
        #expect(RefundShare.reversed(10, share: -5) == 0)
        #expect(
            RefundShare.movement(of: ["coins": 100, "potions": 3], from: 30_000, to: 80_000) == [
                "coins": -50, "potions": -2,
            ])
        #expect(
            RefundShare.movement(of: ["coins": 100, "potions": 3], from: 80_000, to: 0) == ["coins": 80, "potions": 2])
        #expect(RefundShare.movement(of: ["coins": 1], from: 0, to: 50_000).isEmpty)
    }
}
