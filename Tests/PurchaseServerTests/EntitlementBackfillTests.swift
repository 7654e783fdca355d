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
}
