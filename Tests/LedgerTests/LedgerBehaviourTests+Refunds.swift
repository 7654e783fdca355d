import Foundation
import Ledger
import LedgerTestSupport
import Testing

extension LedgerBehaviourTests {
    @Test("a refund posts negative entries; a balance may go negative and is reported", arguments: StoreKind.allCases)
    func refund(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery(grants: ["coins": 100, "gems": 2])
            _ = try await store.deliver(delivery)
            // The player spent 60 coins (the game reports spending as a negative adjustment).
            _ = try await store.grantManually(
                playerId: "player-1",
                grants: ["coins": -60],
                reason: "spent",
                actor: "game"
            )

            let result = try await store.reverse(
                store: .appStore, transactionId: delivery.transactionId, reason: "REFUND")
            guard case .reversed(let purchase, let posting) = result else {
                Issue.record("expected .reversed, got \(result)")
                return
            }
            #expect(purchase.status == .refunded)
            #expect(purchase.refundReason == "REFUND")
            #expect(purchase.refundedAt != nil)
            #expect(posting.entries.map(\.item) == ["coins", "gems"])
            #expect(posting.entries.map(\.amount) == [-100, -2])
            #expect(posting.entries.allSatisfy { $0.kind == .refund && $0.transactionId == delivery.transactionId })
            #expect(posting.balances == ["coins": -60, "gems": 0])
            #expect(posting.hasNegativeBalance)
            #expect(posting.negativeBalances == ["coins": -60])

            #expect(try await store.wallet(playerId: "player-1") == ["coins": -60, "gems": 0])
            #expect(try await store.purchase(store: .appStore, transactionId: delivery.transactionId) == purchase)
            let refunded = try #require(try await store.events(transactionId: delivery.transactionId).last)
            #expect(refunded.type == .refunded)
            #expect(refunded.detail["reason"] == "REFUND")
            #expect(refunded.detail["negativeBalances"] == #"{"coins":-60}"#)
        }
    }

    @Test("reversing twice reverses once; an unknown transaction is reported", arguments: StoreKind.allCases)
    func reverseTwice(kind: StoreKind) async throws {
        try await withStores(kind, count: 2) { stores, _ in
            let delivery = Fixture.delivery()
            _ = try await stores[0].deliver(delivery)
            let results = try await withThrowingTaskGroup(of: ReversalResult.self) { group in
                for index in 0..<20 {
                    let store = stores[index % 2]
                    group.addTask {
                        try await store.reverse(
                            store: .appStore, transactionId: delivery.transactionId, reason: "REFUND")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let reversals = results.filter { if case .reversed = $0 { true } else { false } }
            #expect(reversals.count == 1)
            #expect(
                results.filter {
                    if case .alreadyReversed(let purchase) = $0 { purchase.status == .refunded } else { false }
                }
                .count == 19
            )
            #expect(try await stores[0].wallet(playerId: "player-1") == ["coins": 0])
            #expect(try await stores[0].ledgerEntries(playerId: "player-1").map(\.kind) == [.grant, .refund])
            #expect(
                try await stores[1].reverse(store: .appStore, transactionId: "unknown", reason: "REFUND")
                    == .unknownTransaction)
        }
    }

    @Test("regrant after a refund grants again, once", arguments: StoreKind.allCases)
    func regrant(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery(grants: ["coins": 100])
            let delivered = try await store.deliver(delivery).purchase

            guard
                case .alreadyGranted(let notRefunded) = try await store.regrant(
                    store: .appStore, transactionId: delivery.transactionId)
            else {
                Issue.record("a purchase never refunded cannot be re-granted")
                return
            }
            #expect(notRefunded == delivered)

            _ = try await store.reverse(store: .appStore, transactionId: delivery.transactionId, reason: "REFUND")
            let result = try await store.regrant(store: .appStore, transactionId: delivery.transactionId)
            guard case .regranted(let purchase, let posting) = result else {
                Issue.record("expected .regranted, got \(result)")
                return
            }
            #expect(purchase.status == .delivered)
            #expect(purchase.refundedAt == nil)
            #expect(purchase.refundReason == nil)
            #expect(posting.entries.map(\.kind) == [.refundReversed])
            #expect(posting.entries.map(\.amount) == [100])
            #expect(posting.balances == ["coins": 100])
            #expect(!posting.hasNegativeBalance)

            guard
                case .alreadyGranted = try await store.regrant(store: .appStore, transactionId: delivery.transactionId)
            else {
                Issue.record("a second regrant must change nothing")
                return
            }
            #expect(try await store.regrant(store: .appStore, transactionId: "unknown") == .unknownTransaction)
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 100])

            // Refunded again after the re-grant: reversed again.
            guard
                case .reversed = try await store.reverse(
                    store: .appStore, transactionId: delivery.transactionId, reason: "REFUND")
            else {
                Issue.record("a re-granted purchase can be refunded again")
                return
            }
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 0])
            #expect(
                try await store.ledgerEntries(playerId: "player-1").map(\.kind) == [
                    .grant, .refund, .refundReversed, .refund,
                ]
            )
            #expect(
                try await store.events(transactionId: delivery.transactionId).map(\.type) == [
                    .delivered, .refunded, .refundReversed, .refunded,
                ]
            )
        }
    }

    @Test("a manual grant is posted and audited", arguments: StoreKind.allCases)
    func manualGrant(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let posting = try await store.grantManually(
                playerId: "player-7",
                grants: ["coins": 50, "sword": 1],
                reason: "ticket #42: lost order",
                actor: "alice@support"
            )
            #expect(posting.entries.map(\.item) == ["coins", "sword"])
            #expect(posting.entries.allSatisfy { $0.kind == .manual })
            #expect(posting.entries.allSatisfy { $0.actor == "alice@support" && $0.reason == "ticket #42: lost order" })
            #expect(posting.entries.allSatisfy { $0.transactionId == nil })
            #expect(try await store.wallet(playerId: "player-7") == ["coins": 50, "sword": 1])

            let audit = try #require(try await store.timeline(playerId: "player-7").first)
            #expect(audit.type == .manualGrant)
            #expect(audit.detail["actor"] == "alice@support")
            #expect(audit.detail["reason"] == "ticket #42: lost order")
            #expect(audit.detail["grants"] == #"{"coins":50,"sword":1}"#)
        }
    }
}
