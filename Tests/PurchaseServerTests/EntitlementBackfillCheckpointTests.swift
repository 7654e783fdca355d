import Foundation
import Ledger
import Logging
import Testing

@testable import PurchaseServer

/// A complete entitlement backfill is remembered in the ledger for the catalog it ran
/// with: a later process with the same catalog does not walk the purchases again, and one
/// whose catalog changes what a product unlocks does.
@Suite("Entitlement backfill checkpoint")
struct EntitlementBackfillCheckpointTests {
    @Test("a backfill finished for this catalog is not walked again; a catalog that changes what a product unlocks is")
    func finishedBackfillIsRemembered() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let store = try await fixture.store
        let catalog = try await fixture.server.configuration.catalog
        let logger = Logger(label: "test")
        try await Self.deliverWithoutEntitlement("8300", to: "alice", on: store)
        #expect(try await EntitlementBackfill(store: store, catalog: catalog, logger: logger).run() == 1)
        #expect(try await store.checkpoint(EntitlementBackfill.checkpointName) != nil)

        // Only a purchase written past the ledger's delivery lacks one now: a new process
        // with the same catalog does not look.
        try await Self.deliverWithoutEntitlement("8301", to: "bob", on: store)
        #expect(try await EntitlementBackfill(store: store, catalog: catalog, logger: logger).run() == 0)
        #expect(try await store.entitlements(playerId: "bob").isEmpty)

        var changed = catalog
        let index = try #require(changed.products.firstIndex { $0.productId == "levelpack1" })
        changed.products[index].entitlement = "levelpack1-renamed"
        #expect(try await EntitlementBackfill(store: store, catalog: changed, logger: logger).run() == 1)
        #expect(try await store.entitlements(playerId: "bob").map(\.entitlementId) == ["levelpack1-renamed"])
        #expect(try await EntitlementBackfill(store: store, catalog: changed, logger: logger).run() == 0)
    }

    /// A level pack delivered as the server did before ledger migration 6: without an
    /// entitlement.
    private static func deliverWithoutEntitlement(
        _ transactionId: String, to playerId: String, on store: any LedgerStore
    ) async throws {
        _ = try await store.deliver(
            Delivery(
                store: .appStore, transactionId: transactionId, originalTransactionId: transactionId,
                playerId: playerId, productId: "levelpack1", environment: .sandbox, source: .clientSignedTransaction,
                grants: [:], purchaseDate: Date()))
    }
}
