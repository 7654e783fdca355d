import Foundation
import Synchronization
import Testing

@testable import Ledger

/// The embedded ledger commits the writes that wait for the writer together: each still
/// answers as if it had its own transaction.
struct SQLiteGroupCommitTests {
    @Test("a write that fails inside a group is rolled back alone; the others commit")
    func failureInsideAGroup() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let release = AsyncStream<Void>.makeStream()
        let paused = Mutex(false)
        let first = Fixture.delivery()
        // The first delivery holds the writer at its pause point until the others wait.
        let store = try SQLiteLedgerStore(
            path: directory.appendingPathComponent("ledger.sqlite").path,
            hook: { point in
                guard point == .refundNoticesRead(transactionId: first.transactionId),
                    paused.withLock({ was in
                        defer { was = true }
                        return !was
                    })
                else { return }
                for await _ in release.stream { return }
            })
        try await store.migrate()
        let order = try await store.createOrder(Fixture.order())

        let held = Task { try await store.deliver(first) }
        while !paused.withLock({ $0 }) { await Task.yield() }
        // Delivered to an order that does not exist: the purchase is inserted, then the
        // order is found missing and the operation throws.
        let failing = Fixture.delivery(orderId: "missing-order")
        let failed = Task { try await store.deliver(failing) }
        let second = Fixture.delivery(orderId: order.orderId)
        let succeeded = Task { try await store.deliver(second) }
        while store.groupCommit.waitingCount < 2 { await Task.yield() }
        release.continuation.finish()

        #expect(try await held.value.isFirstDelivery)
        await #expect(throws: LedgerError.unknownOrder(orderId: "missing-order")) { try await failed.value }
        #expect(try await succeeded.value.isFirstDelivery)
        #expect(
            try await store.purchase(store: .appStore, transactionId: failing.transactionId) == nil,
            "rolled back to its savepoint")
        #expect(
            try await store.purchase(store: .appStore, transactionId: second.transactionId)?.orderId == order.orderId)
        #expect(try await store.wallet(playerId: "player-1") == ["coins": 200])
        #expect(try await store.order(id: order.orderId)?.fulfilledBy == second.transactionId)
        try await store.close()
    }

    @Test("text with a NUL inside is stored whole and matched whole")
    func textWithNul() async throws {
        let store = try SQLiteLedgerStore.inMemory()
        try await store.migrate()
        var order = Fixture.order(player: "player\u{0}-other")
        order.orderId = "order\u{0}1"
        _ = try await store.createOrder(order)
        #expect(try await store.order(id: "order\u{0}1")?.playerId == "player\u{0}-other")
        #expect(try await store.order(id: "order") == nil)
        #expect(try await store.orders(playerId: "player").isEmpty)
        #expect(try await store.order(id: "") == nil)
        try await store.close()
    }
}
