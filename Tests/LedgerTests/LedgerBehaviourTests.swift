import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// The ledger's behaviour, written once and run against both stores.
@Suite("LedgerStore behaviour (SQLite and PostgreSQL)")
struct LedgerBehaviourTests {
    @Test("create and look up orders", arguments: StoreKind.allCases)
    func orders(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            var order = Fixture.order()
            order.appAccountToken = order.appAccountToken.uppercased()
            let created = try await store.createOrder(order)
            #expect(created.appAccountToken == order.appAccountToken.lowercased())
            #expect(created.status == .created)
            #expect(created.fulfilledBy == nil)

            #expect(try await store.order(id: order.orderId) == created)
            #expect(try await store.order(appAccountToken: order.appAccountToken) == created)
            #expect(try await store.order(appAccountToken: order.appAccountToken.lowercased()) == created)
            #expect(try await store.order(id: "missing") == nil)

            let second = try await store.createOrder(Fixture.order())
            _ = try await store.createOrder(Fixture.order(player: "player-2"))
            #expect(try await store.orders(playerId: "player-1").map(\.orderId) == [created.orderId, second.orderId])

            await #expect(throws: LedgerError.duplicateOrder(orderId: order.orderId)) {
                try await store.createOrder(order)
            }
            var sameToken = Fixture.order()
            sameToken.appAccountToken = order.appAccountToken
            await #expect(throws: LedgerError.duplicateOrder(orderId: sameToken.orderId)) {
                try await store.createOrder(sameToken)
            }
            let events = try await store.events(orderId: order.orderId)
            #expect(events.map(\.type) == [.orderCreated])
        }
    }

    @Test("deliver grants, fulfils the order, enqueues one message, records the event", arguments: StoreKind.allCases)
    func deliver(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let order = try await store.createOrder(Fixture.order())
            let delivery = Fixture.delivery(orderId: order.orderId, flags: [PurchaseFlag.sandboxInProduction])
            let result = try await store.deliver(delivery)

            guard case .delivered(let purchase) = result else {
                Issue.record("expected .delivered, got \(result)")
                return
            }
            #expect(purchase.transactionId == delivery.transactionId)
            #expect(purchase.playerId == "player-1")
            #expect(purchase.orderId == order.orderId)
            #expect(purchase.grants == ["coins": 100])
            #expect(purchase.status == .delivered)
            #expect(purchase.source == .clientSignedTransaction)
            #expect(purchase.environment == .sandbox)
            #expect(purchase.flags == [PurchaseFlag.sandboxInProduction])
            #expect(purchase.purchaseDate == Fixture.purchaseDate)
            #expect(try await store.purchase(store: .appStore, transactionId: delivery.transactionId) == purchase)
            #expect(try await store.purchases(playerId: "player-1") == [purchase])

            #expect(try await store.wallet(playerId: "player-1") == ["coins": 100])
            let entries = try await store.ledgerEntries(playerId: "player-1")
            #expect(entries.map(\.kind) == [.grant])
            #expect(entries.first?.amount == 100)
            #expect(entries.first?.balanceAfter == 100)
            #expect(entries.first?.transactionId == delivery.transactionId)

            let fulfilled = try await store.order(id: order.orderId)
            #expect(fulfilled?.status == .fulfilled)
            #expect(fulfilled?.fulfilledBy == delivery.transactionId)

            let message = try #require(try await store.outboxMessage(idempotencyKey: delivery.transactionId))
            #expect(message.playerId == "player-1")
            #expect(message.attempts == 0)
            let body = try DeliveryMessage.decode(message.payload)
            #expect(body.playerId == "player-1")
            #expect(body.transactionId == delivery.transactionId)
            #expect(body.grants == ["coins": 100])
            #expect(body.purchaseDate == 1_700_000_000_123)
            let due = try await store.dueOutboxMessages(now: Date().addingTimeInterval(1), limit: 10)
            #expect(due.map(\.idempotencyKey) == [delivery.transactionId])

            let timeline = try await store.timeline(playerId: "player-1")
            #expect(timeline.map(\.type) == [.orderCreated, .delivered])
            let delivered = try #require(timeline.last)
            #expect(delivered.transactionId == delivery.transactionId)
            #expect(delivered.orderId == order.orderId)
            #expect(delivered.detail["source"] == "client_signed_transaction")
            #expect(try await store.events(transactionId: delivery.transactionId).map(\.type) == [.delivered])
        }
    }

    @Test(
        "a second delivery of one transaction returns the first purchase and changes nothing",
        arguments: StoreKind.allCases)
    func deliverTwice(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let order = try await store.createOrder(Fixture.order())
            let first = Fixture.delivery(orderId: order.orderId)
            let delivered = try await store.deliver(first).purchase

            var again = first
            again.source = .notification
            again.grants = ["coins": 999, "gems": 5]
            again.orderId = nil
            again.flags = [PurchaseFlag.unbound]
            let second = try await store.deliver(again)
            #expect(second == .alreadyDelivered(delivered))
            #expect(!second.isFirstDelivery)

            // Whatever the other fields say — even another player, or an order that does not exist.
            var other = first
            other.playerId = "player-2"
            other.orderId = "no-such-order"
            #expect(try await store.deliver(other) == .alreadyDelivered(delivered))

            #expect(try await store.wallet(playerId: "player-1") == ["coins": 100])
            #expect(try await store.wallet(playerId: "player-2") == [:])
            #expect(try await store.ledgerEntries(playerId: "player-1").count == 1)
            #expect(try await store.events(transactionId: first.transactionId).map(\.type) == [.delivered])
            let due = try await store.dueOutboxMessages(now: Date().addingTimeInterval(1), limit: 10)
            #expect(due.count == 1)
        }
    }

    @Test(
        "100 concurrent deliveries of one transaction on separate connections grant once", arguments: StoreKind.allCases
    )
    func concurrentDeliveries(kind: StoreKind) async throws {
        try await withStores(kind, count: 4) { stores, database in
            let order = try await stores[0].createOrder(Fixture.order())
            let transactionId = Fixture.transactionId()
            let sources = DeliverySource.allCases
            let results = try await withThrowingTaskGroup(of: DeliveryResult.self) { group in
                for index in 0..<100 {
                    let store = stores[index % stores.count]
                    var delivery = Fixture.delivery(transactionId: transactionId, orderId: order.orderId)
                    delivery.source = sources[index % sources.count]
                    group.addTask { try await store.deliver(delivery) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 100)
            #expect(results.filter(\.isFirstDelivery).count == 1)
            #expect(Set(results.map(\.purchase)).count == 1)

            #expect(try await stores[1].wallet(playerId: "player-1") == ["coins": 100])
            #expect(try await stores[2].ledgerEntries(playerId: "player-1").count == 1)
            #expect(try await stores[3].events(transactionId: transactionId).count == 1)
            #expect(try await stores[0].dueOutboxMessages(now: Date().addingTimeInterval(1), limit: 200).count == 1)

            if kind == .postgres, let name = database.name {
                // The race really ran on several server connections.
                let connections = try await PostgresCluster.shared.connectionCount(database: name)
                #expect(connections > 1, "only \(connections) connection(s) were used")
            }
        }
    }

    @Test("concurrent deliveries of different transactions to one player add up", arguments: StoreKind.allCases)
    func concurrentDistinctDeliveries(kind: StoreKind) async throws {
        try await withStores(kind, count: 3) { stores, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<60 {
                    let store = stores[index % stores.count]
                    let delivery = Fixture.delivery(grants: ["coins": 10, "gems": 1, "xp": 3])
                    group.addTask { _ = try await store.deliver(delivery) }
                }
                try await group.waitForAll()
            }
            #expect(try await stores[0].wallet(playerId: "player-1") == ["coins": 600, "gems": 60, "xp": 180])
            let entries = try await stores[0].ledgerEntries(playerId: "player-1")
            #expect(entries.count == 180)
            let coinBalances: [Int64] = entries.filter { $0.item == "coins" }.map(\.balanceAfter).sorted()
            let expected: [Int64] = (1...60).map { Int64($0) * 10 }
            #expect(coinBalances == expected)
        }
    }

    @Test(
        "a transaction bound to another player's order, or to no order, is refused and nothing changes",
        arguments: StoreKind.allCases)
    func deliverRefusesWrongOrder(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let order = try await store.createOrder(Fixture.order(player: "player-1"))
            let stolen = Fixture.delivery(player: "player-2", orderId: order.orderId)
            await #expect(throws: LedgerError.orderBelongsToOtherPlayer(orderId: order.orderId, playerId: "player-2")) {
                try await store.deliver(stolen)
            }
            let unknown = Fixture.delivery(orderId: "no-such-order")
            await #expect(throws: LedgerError.unknownOrder(orderId: "no-such-order")) {
                try await store.deliver(unknown)
            }
            #expect(try await store.purchase(store: .appStore, transactionId: stolen.transactionId) == nil)
            #expect(try await store.purchase(store: .appStore, transactionId: unknown.transactionId) == nil)
            #expect(try await store.wallet(playerId: "player-2") == [:])
            #expect(try await store.order(id: order.orderId)?.status == .created)
            #expect(try await store.dueOutboxMessages(now: Date().addingTimeInterval(1), limit: 10).isEmpty)

            // The server records the rejection; support staff see it in the timeline.
            let rejection = try await store.appendEvent(
                HistoryEvent(
                    type: .transactionBelongsToOtherPlayer,
                    playerId: "player-2",
                    orderId: order.orderId,
                    transactionId: stolen.transactionId,
                    detail: ["orderPlayer": "player-1"],
                    createdAt: Date()
                )
            )
            #expect(rejection.id != nil)
            #expect(try await store.timeline(playerId: "player-2") == [rejection])

            // The right player's transaction still goes through afterwards.
            let rightful = try await store.deliver(Fixture.delivery(player: "player-1", orderId: order.orderId))
            #expect(rightful.isFirstDelivery)
        }
    }

    @Test("a second transaction for a fulfilled order is delivered and flagged", arguments: StoreKind.allCases)
    func secondTransactionForFulfilledOrder(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let order = try await store.createOrder(Fixture.order())
            let first = try await store.deliver(Fixture.delivery(orderId: order.orderId)).purchase
            let second = try await store.deliver(Fixture.delivery(orderId: order.orderId)).purchase
            #expect(!first.flags.contains(PurchaseFlag.orderAlreadyFulfilled))
            #expect(second.flags.contains(PurchaseFlag.orderAlreadyFulfilled))
            #expect(try await store.order(id: order.orderId)?.fulfilledBy == first.transactionId)
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 200])
        }
    }

    @Test("rejects grants it cannot apply", arguments: StoreKind.allCases)
    func invalidGrants(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            await #expect(throws: LedgerError.self) {
                try await store.deliver(Fixture.delivery(grants: ["coins": 0]))
            }
            await #expect(throws: LedgerError.self) {
                try await store.deliver(Fixture.delivery(grants: ["": 5]))
            }
            await #expect(throws: LedgerError.self) {
                try await store.grantManually(playerId: "player-1", grants: [:], reason: "r", actor: "a")
            }
            let wallet = try await store.wallet(playerId: "player-1")
            #expect(wallet.isEmpty)
        }
    }
}
