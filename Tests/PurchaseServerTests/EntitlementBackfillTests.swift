import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// A server upgraded from a ledger without entitlements lists what its players bought
/// before, and a restore finds it.
@Suite("Entitlement backfill")
struct EntitlementBackfillTests {
    @Test(
        "a level pack delivered before entitlements were kept is listed after the backfill and restores as owned",
        arguments: StoreKind.allCases)
    func levelPackBoughtBeforeTheUpgrade(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "levelpack1")
        let paid = try await fixture.pay(product: "levelpack1", token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        // Delivered as the server did before ledger migration 6: without an entitlement.
        _ = try await fixture.store.deliver(
            Delivery(
                store: .appStore,
                transactionId: transactionId, originalTransactionId: transactionId, playerId: "alice",
                orderId: order.orderId, productId: "levelpack1", environment: .sandbox,
                source: .clientSignedTransaction, grants: [:], purchaseDate: Date()))
        #expect(try await fixture.entitlements("alice").isEmpty)

        #expect(try await fixture.server.backfillEntitlements() == 1)
        #expect(try await fixture.server.backfillEntitlements() == 0, "it runs once")
        let pack = try await fixture.entitlement("alice", "levelpack1")
        #expect(pack.entitled && pack.state == "active" && pack.until == nil)
        #expect(pack.transactionId == transactionId)

        let reply = try await fixture.restore("alice", [try #require(paid.signedTransaction)])
        #expect(reply.results.map(\.status) == ["already_owned"])
        #expect(reply.entitlements.map(\.entitlementId) == ["levelpack1"])
    }

    @Test(
        "old season passes stack on each other, never on a pass delivered after the upgrade",
        arguments: StoreKind.allCases)
    func seasonPassesBoughtBeforeAndAfter(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let day: TimeInterval = 86_400
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let period = try #require(try await fixture.server.configuration.catalog.product("seasonpass")?.periodDays)
        for (id, days) in [("8100", 0.0), ("8101", 10.0)] {
            _ = try await fixture.store.deliver(
                Delivery(
                    store: .appStore,
                    transactionId: id, originalTransactionId: id, playerId: "alice", productId: "seasonpass",
                    environment: .sandbox, source: .clientSignedTransaction, grants: [:],
                    purchaseDate: start.addingTimeInterval(days * day)))
        }
        // Bought after the upgrade: delivered with its entitlement, much later.
        let recent = start.addingTimeInterval(1_000 * day)
        _ = try await fixture.store.deliver(
            Delivery(
                store: .appStore,
                transactionId: "8200", originalTransactionId: "8200", playerId: "alice", productId: "seasonpass",
                environment: .sandbox, source: .clientSignedTransaction, grants: [:], purchaseDate: recent,
                entitlement: EntitlementGrant(
                    entitlementId: "seasonpass", productType: ProductKind.nonRenewing, state: .active,
                    since: recent, until: nil, stackSeconds: Int64(period) * 86_400, ownership: .purchased,
                    signedAt: recent)))

        #expect(try await fixture.server.backfillEntitlements() == 2)
        let ends = try await fixture.store.entitlements(playerId: "alice").reduce(into: [String: Date]()) {
            $0[$1.originalTransactionId] = $1.until
        }
        let length = Double(period) * day
        #expect(ends["8100"] == start.addingTimeInterval(length))
        #expect(ends["8101"] == start.addingTimeInterval(2 * length), "the second old pass starts when the first ends")
        #expect(ends["8200"] == recent.addingTimeInterval(length), "the recent pass is untouched")
    }
}
