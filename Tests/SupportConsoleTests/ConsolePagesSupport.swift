import AppStoreEmulator
import Foundation
import Ledger
import PurchaseServer

@testable import SupportConsole

/// What the page tests set up through the emulated App Store: orders, purchases and the
/// notifications that deliver them.
extension ConsoleFixture {
    /// The page tests' configuration: transactions are owed at once; cheap password hashes.
    static func pagesConfiguration(_ configuration: inout ServerConfiguration) {
        configuration.console.owedAfterSeconds = 0
        configuration.console.passwordHashCost = Int(testBcryptCost)
    }

    /// Runs `body` on a fresh fixture with the page tests' configuration, adjusted by
    /// `configure`, and shuts it down afterwards whatever happens.
    static func withPages(
        _ configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (ConsoleFixture) async throws -> Void
    ) async throws {
        let fixture = try await ConsoleFixture {
            pagesConfiguration(&$0)
            configure(&$0)
        }
        let result: Result<Void, any Error>
        do {
            result = .success(try await body(fixture))
        } catch {
            result = .failure(error)
        }
        await fixture.shutdown()
        try result.get()
    }

    /// Creates an order for `player` directly in the ledger.
    func order(_ player: String, product: String = "coins100") async throws -> Order {
        let now = Date()
        return try await store.createOrder(
            Order(
                orderId: UUID().uuidString.lowercased(), playerId: player, productId: product,
                appAccountToken: UUID().uuidString.lowercased(), createdAt: now,
                expiresAt: now.addingTimeInterval(3_600)))
    }

    /// Pays on the emulated device: with `order`'s token (its notification delivers it to
    /// the order's player) or without any (it waits, owed). Returns Apple's transaction id
    /// and customer order id.
    func pay(for order: Order?, product: String = "coins100") async throws -> (
        transactionId: String, appleOrderId: String
    ) {
        let result = try await emulator.purchase(
            deviceId: "phone",
            PurchaseRequest(productId: order?.productId ?? product, appAccountToken: order?.appAccountToken))
        guard let transactionId = result.transactionId, let appleOrderId = result.orderId else {
            throw ConsoleTestError("the emulator did not charge: \(result.outcome)")
        }
        return (transactionId, appleOrderId)
    }

    /// An order of `player` paid on the device and delivered by its notification.
    func deliveredPurchase(to player: String) async throws -> (
        order: Order, paid: (transactionId: String, appleOrderId: String)
    ) {
        let order = try await order(player)
        let paid = try await pay(for: order)
        try await eventually("the delivery by the notification") {
            try await store.purchase(store: .appStore, transactionId: paid.transactionId) != nil
        }
        return (order, paid)
    }

    /// Waits until `condition` holds (notifications arrive asynchronously), at most 60 s.
    func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        // At most 60 s: it returns once the condition holds, and the whole suite on two busy
        // cores once took over 20 s for a notification (ConsolePagesOwedTests).
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        repeat {
            guard try await !condition() else { return }
            try await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        throw ConsoleTestError("timed out waiting for \(what)")
    }

    /// The audit records of `action`, newest first.
    func audit(_ action: String, actor: String? = nil) async throws -> [AuditRecord] {
        try await store.auditRecords(beforeId: nil, limit: 500, actor: actor).filter { $0.action == action }
    }
}

extension ConsoleAnswer {
    /// The `Location` of a redirect.
    var location: String? { header("location") }
}
