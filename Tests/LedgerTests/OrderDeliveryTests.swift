import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import PostgresNIO
import Testing

/// ``LedgerStore/deliverByOrder(_:appAccountToken:)``: the plain case of a delivery in one
/// transaction, with the same writes as ``LedgerStore/deliver(_:)``. Every case runs through
/// each way it runs (``OrderDeliveryPath``): PostgreSQL's function and the Swift operation it
/// mirrors fail here when they disagree.
@Suite("Delivery by order (SQLite, PostgreSQL's function and its statements)")
struct OrderDeliveryTests {
    /// Two items, so that balances and entries are written in item order.
    static let grants: Grants = ["gems": 5, "coins": 100]

    @Test("writes what deliver writes, and answers the balances", arguments: OrderDeliveryPath.allCases)
    func sameWritesAsDeliver(path: OrderDeliveryPath) async throws {
        try await path.withStores(count: 1) { stores in
            let store = stores[0]
            // The general path for player-a, the one-statement path for player-b.
            let general = try await store.createOrder(Fixture.order(player: "player-a"))
            let plain = try await store.createOrder(Fixture.order(player: "player-b"))
            _ = try await store.grantManually(
                playerId: "player-b", grants: ["coins": 7], reason: "earlier balance", actor: "test")
            let first = Fixture.delivery(player: "player-a", orderId: general.orderId, grants: Self.grants)
            let second = Fixture.delivery(player: "player-b", orderId: plain.orderId, grants: Self.grants)
            guard case .delivered(let expected) = try await store.deliver(first) else {
                Issue.record("the general path did not deliver")
                return
            }
            let answer = try await store.deliverByOrder(second, appAccountToken: plain.appAccountToken.uppercased())
            guard case .delivered(let purchase, let balances) = answer else {
                Issue.record("expected delivered, got \(answer)")
                return
            }
            #expect(balances == ["coins": 107, "gems": 5])
            #expect(try await store.wallet(playerId: "player-b") == balances)
            #expect(try await store.purchase(store: .appStore, transactionId: second.transactionId) == purchase)

            var comparable = purchase
            comparable.transactionId = expected.transactionId
            comparable.originalTransactionId = expected.originalTransactionId
            comparable.playerId = expected.playerId
            comparable.orderId = expected.orderId
            comparable.deliveredAt = expected.deliveredAt
            #expect(comparable == expected)

            let order = try #require(try await store.order(id: plain.orderId))
            #expect(order.status == .fulfilled)
            #expect(order.fulfilledBy == second.transactionId)

            let entries = try await store.ledgerEntries(playerId: "player-b").filter { $0.kind == .grant }
            let expectedEntries = try await store.ledgerEntries(playerId: "player-a")
            #expect(entries.map(\.item) == expectedEntries.map(\.item))
            #expect(entries.map(\.item) == ["coins", "gems"])
            #expect(entries.map(\.amount) == expectedEntries.map(\.amount))
            #expect(entries.map(\.balanceAfter) == [107, 5])
            #expect(entries.allSatisfy { $0.transactionId == second.transactionId })

            let events = try await store.events(transactionId: second.transactionId)
            let expectedEvents = try await store.events(transactionId: first.transactionId)
            #expect(events.map(\.type) == [.delivered])
            #expect(events.map(\.detail) == expectedEvents.map(\.detail))
            #expect(events.first?.orderId == plain.orderId)
            #expect(events.first?.playerId == "player-b")

            let message = try #require(try await store.outboxMessage(idempotencyKey: second.transactionId))
            let expectedMessage = try #require(try await store.outboxMessage(idempotencyKey: first.transactionId))
            var body = try DeliveryMessage.decode(message.payload)
            #expect(body == DeliveryMessage(purchase: purchase))
            body.playerId = "player-a"
            body.transactionId = first.transactionId
            body.originalTransactionId = first.originalTransactionId
            body.orderId = general.orderId
            #expect(body == (try DeliveryMessage.decode(expectedMessage.payload)))
        }
    }

    @Test("writes nothing and asks for binding when the case is not plain", arguments: OrderDeliveryPath.allCases)
    func declines(path: OrderDeliveryPath) async throws {
        try await path.withStores(count: 1) { stores in
            let store = stores[0]
            let order = try await store.createOrder(Fixture.order())
            let other = try await store.createOrder(Fixture.order(player: "player-2"))
            let token = order.appAccountToken
            let cases: [(String, Delivery, String)] = [
                ("no order named", Fixture.delivery(orderId: nil), token),
                ("another token", Fixture.delivery(orderId: order.orderId), other.appAccountToken),
                ("another player's order", Fixture.delivery(orderId: other.orderId), other.appAccountToken),
                ("another product", Fixture.delivery(orderId: order.orderId, product: "gems10"), token),
                ("an order that does not exist", Fixture.delivery(orderId: "missing"), token),
            ]
            for (name, delivery, token) in cases {
                let answer = try await store.deliverByOrder(delivery, appAccountToken: token)
                #expect(answer == .needsBinding, "\(name)")
                #expect(
                    try await store.purchase(store: .appStore, transactionId: delivery.transactionId) == nil, "\(name)")
            }
            #expect(try await store.wallet(playerId: "player-1").isEmpty)
            #expect(try await store.order(id: order.orderId)?.status == .created)

            // Delivered before (by any path): the second call writes nothing.
            let first = Fixture.delivery(orderId: order.orderId)
            #expect(try await store.deliverByOrder(first, appAccountToken: token).isDelivered)
            #expect(try await store.deliverByOrder(first, appAccountToken: token) == .needsBinding)
            var retry = first
            retry.transactionId = Fixture.transactionId()
            #expect(
                try await store.deliverByOrder(retry, appAccountToken: token) == .needsBinding,
                "the order is fulfilled already")
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 100])

            // A notification recorded about the transaction: its refund state must be read.
            let notified = try await store.createOrder(Fixture.order())
            let refunded = Fixture.delivery(orderId: notified.orderId)
            try await RefundNoticeFixture.record(store, refunded.transactionId, "REFUND", signedAt: 1_000)
            #expect(
                try await store.deliverByOrder(refunded, appAccountToken: notified.appAccountToken) == .needsBinding)
            #expect(try await store.purchase(store: .appStore, transactionId: refunded.transactionId) == nil)
            #expect(try await store.order(id: notified.orderId)?.status == .created)
        }
    }

    @Test("concurrent calls for one transaction deliver it once", arguments: OrderDeliveryPath.allCases)
    func concurrentCallsDeliverOnce(path: OrderDeliveryPath) async throws {
        try await path.withStores(count: 4) { stores in
            let order = try await stores[0].createOrder(Fixture.order())
            let delivery = Fixture.delivery(orderId: order.orderId)
            let answers = try await withThrowingTaskGroup(of: OrderDeliveryResult.self) { group in
                for store in stores {
                    group.addTask { try await store.deliverByOrder(delivery, appAccountToken: order.appAccountToken) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter(\.isDelivered).count == 1)
            #expect(answers.filter { $0 == .needsBinding }.count == stores.count - 1)
            #expect(try await stores[0].wallet(playerId: "player-1") == ["coins": 100])
            #expect(try await stores[0].ledgerEntries(playerId: "player-1").count == 1)
        }
    }
}

extension OrderDeliveryResult {
    fileprivate var isDelivered: Bool {
        if case .delivered = self { true } else { false }
    }
}

/// The ways ``LedgerStore/deliverByOrder(_:appAccountToken:)`` runs.
enum OrderDeliveryPath: String, CaseIterable, Sendable {
    /// SQLite: the Swift operation.
    case sqlite
    /// PostgreSQL: the PL/pgSQL function, one statement.
    case postgresFunction
    /// PostgreSQL: the same Swift operation as SQLite's, as statements of one transaction
    /// (`order_delivery=statements`). The function is dropped from its database after the
    /// migration, so a case that still reached it would fail.
    case postgresStatements

    /// Runs `body` with `count` migrated stores on one fresh database, delivering by order
    /// this way, and closes them.
    func withStores(count: Int, _ body: ([any LedgerStore]) async throws -> Void) async throws {
        var database = try await (self == .sqlite ? StoreKind.sqlite : .postgres).makeDatabase()
        defer { database.remove() }
        if self == .postgresStatements { database.url += "&order_delivery=statements" }
        var stores: [any LedgerStore] = []
        do {
            for _ in 0..<count {
                let store = try database.open()
                stores.append(store)
                try await store.migrate()
            }
            if self == .postgresStatements {
                let store = try #require(stores.first as? PostgresLedgerStore)
                _ = try await store.client.query(
                    """
                    DROP FUNCTION storekeeper_deliver_by_order(INTEGER, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT,
                        TEXT, TEXT, TEXT, TEXT, TIMESTAMPTZ, TIMESTAMPTZ, TEXT, TEXT)
                    """)
            }
            try await body(stores)
            for store in stores { try await store.close() }
        } catch {
            for store in stores { try? await store.close() }
            throw error
        }
    }
}
