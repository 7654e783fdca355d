import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// A purchase's identity is its store and the store's id (migration 12): what a ledger
/// recorded before is the App Store's and keeps its keys, and a second store's purchases
/// are recorded, found, announced and keyed as its own.
struct StoreIdentityTests {
    @Test(
        "a ledger written before stores were named migrates: everything in it is the App Store's, keys unchanged",
        arguments: StoreKind.allCases)
    func aLedgerFromBeforeMigrates(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let store = try #require(try database.open() as? any SQLLedgerStore)
        try await store.migrate(through: 11)
        // Written by the release before, as it wrote them (its statements name no store).
        let coins = Fixture.transactionId()
        let pack = Fixture.transactionId()
        let owed = Fixture.transactionId()
        let now = Date().ledgerNormalized
        try await store.write(
            .execute(Self.previousPurchase(coins, product: "coins100", at: now))
                .then { .execute(Self.previousPurchase(pack, product: "levelpack1", at: now)) }
                .then {
                    .execute(
                        LedgerStatement(
                            "INSERT INTO balances (player_id, item, amount, updated_at) VALUES ('player-1', 'coins', 100, ?)",
                            [.timestamp(now)]))
                }
                .then { .execute(Self.previousEntitlement(pack, at: now)) }
                .then {
                    .execute(
                        LedgerStatement(
                            """
                            INSERT INTO history_events (type, player_id, order_id, transaction_id, detail, created_at)
                            VALUES ('awaiting_report', NULL, NULL, ?, '{"reason":"unbound_transaction"}', ?)
                            """, [.text(owed), .timestamp(now.addingTimeInterval(-3_600))]))
                }
                .then {
                    .execute(
                        LedgerStatement(
                            """
                            INSERT INTO refund_notices (notice_id, transaction_id, kind, refunded_share, reason, \
                            signed_at, received_at)
                            VALUES (?, ?, 'refund', 50000, 'REFUND', ?, ?)
                            """, [.text(UUID().uuidString), .text(coins), .timestamp(now), .timestamp(now)]))
                })
        try await store.migrate()
        #expect(try await store.appliedMigrations().last == LedgerSchema.newestVersion)

        let purchase = try #require(try await store.purchase(store: .appStore, transactionId: coins))
        #expect(purchase.store == .appStore && purchase.grants == ["coins": 100])
        #expect(try await store.purchase(store: .googlePlay, transactionId: coins) == nil)
        let entitlement = try #require(try await store.entitlement(store: .appStore, originalTransactionId: pack))
        #expect(entitlement.store == .appStore && entitlement.playerId == "player-1")
        #expect(try await store.entitlement(store: .googlePlay, originalTransactionId: pack) == nil)
        let waiting = try await store.owedTransactions(learnedBefore: now, limit: 10)
        #expect(waiting.map(\.transactionId) == [owed] && waiting.map(\.store) == [.appStore])
        // The refund notice recorded before is the App Store's: settling it takes back half.
        let settled = try await store.settleRefundState(store: .appStore, transactionId: coins, reason: "REFUND")
        guard case .reversed(let refunded, _) = settled else {
            Issue.record("the App Store's notice was not found: \(settled)")
            return
        }
        #expect(refunded.refundedShare == 50_000)
        #expect(try await store.wallet(playerId: "player-1") == ["coins": 50])
        // Its refund message keeps the key the release before would have given it.
        #expect(try await store.outboxMessage(idempotencyKey: "\(coins):refund:1") != nil)
        try await store.close()
    }

    @Test(
        "a Google Play purchase is recorded, found, announced and keyed as Google Play's", arguments: StoreKind.allCases
    )
    func aSecondStoresPurchaseIsItsOwn(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let orderId = "GPA.3372-4150-9088-\(Int.random(in: 10_000...99_999))"
            let result = try await store.deliver(Fixture.delivery(transactionId: orderId, store: .googlePlay))
            #expect(result.isFirstDelivery && result.purchase.store == .googlePlay)
            #expect(try await store.purchase(store: .googlePlay, transactionId: orderId)?.store == .googlePlay)
            #expect(try await store.purchase(store: .appStore, transactionId: orderId) == nil)
            // Again from the same store: the same purchase, nothing more.
            #expect(
                try await !store.deliver(Fixture.delivery(transactionId: orderId, store: .googlePlay)).isFirstDelivery)
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 100])

            #expect(try await store.outboxMessage(idempotencyKey: orderId) == nil)
            let outbox = try #require(try await store.outboxMessage(idempotencyKey: "google_play:\(orderId)"))
            let message = try DeliveryMessage.decode(outbox.payload)
            #expect(message.store == "google_play" && message.transactionId == orderId)
            let delivered = try #require(try await store.events(transactionId: orderId).first { $0.type == .delivered })
            #expect(delivered.store == .googlePlay)
        }
    }

    @Test(
        "an id another store already used is refused with its own error, and nothing is written",
        arguments: StoreKind.allCases)
    func anIdOfAnotherStoreIsRefused(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let id = Fixture.transactionId()
            _ = try await store.deliver(Fixture.delivery(transactionId: id))
            await #expect(throws: LedgerError.transactionIdOfOtherStore(store: .googlePlay, transactionId: id)) {
                try await store.deliver(Fixture.delivery(transactionId: id, player: "player-2", store: .googlePlay))
            }
            #expect(try await store.wallet(playerId: "player-2").isEmpty)
            #expect(try await store.purchase(store: .appStore, transactionId: id)?.playerId == "player-1")
        }
    }

    /// A purchase row as the release before migration 12 inserted it.
    private static func previousPurchase(_ transactionId: String, product: String, at now: Date) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO purchases (transaction_id, original_transaction_id, player_id, order_id, product_id, quantity, \
            environment, source, flags, grants, status, purchase_date, delivered_at)
            VALUES (?, ?, 'player-1', NULL, ?, 1, 'Sandbox', 'client_signed_transaction', '[]', ?, 'delivered', ?, ?)
            """,
            [
                .text(transactionId), .text(transactionId), .text(product),
                .text(product == "coins100" ? #"{"coins":100}"# : "{}"), .timestamp(now), .timestamp(now),
            ])
    }

    /// An entitlement row as the release before migration 12 inserted it.
    private static func previousEntitlement(_ transactionId: String, at now: Date) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO entitlements (original_transaction_id, player_id, entitlement_id, product_id, product_type, \
            transaction_id, state, starts_at, ends_at, auto_renew, auto_renew_product_id, ownership, environment, \
            apple_signed_at, updated_at)
            VALUES (?, 'player-1', 'levelpack1', 'levelpack1', 'Non-Consumable', ?, 'active', ?, NULL, NULL, NULL, \
            'PURCHASED', 'Sandbox', ?, ?)
            """,
            [.text(transactionId), .text(transactionId), .timestamp(now), .timestamp(now), .timestamp(now)])
    }
}
