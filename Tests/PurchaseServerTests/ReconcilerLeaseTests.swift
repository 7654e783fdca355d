import AppStoreAPI
import Foundation
import Ledger
import LedgerTestSupport
import Testing

@testable import PurchaseServer

/// The reconciler across instances: one pass at a time under the ledger's lease, skipped
/// while another instance holds it, stopped when it loses it, and a checkpoint that only
/// moves forward.
@Suite("Reconciler lease")
struct ReconcilerLeaseTests {
    @Test(
        "a pass is skipped while another instance holds the lease, and runs once it is released",
        arguments: StoreKind.allCases)
    func skippedWhileHeld(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        _ = try await fixture.pay(token: order.appAccountToken)
        let store = try await fixture.store
        let other = try await store.acquireLease(Reconciler.leaseName, holder: "other-instance", duration: 60)

        let reconciler = try #require(try await fixture.server.reconciler)
        await #expect(throws: ReconcilerLeaseError.held(by: "other-instance", until: other.expiresAt)) {
            try await reconciler.run()
        }
        #expect(try await fixture.wallet("alice").isEmpty, "a skipped pass reads nothing")
        #expect(try await store.checkpoint(Reconciler.checkpointName) == nil)
        #expect(try await store.checkpoint(Reconciler.leaseName) == "other-instance", "the lease is left alone")

        try await store.releaseLease(Reconciler.leaseName, holder: "other-instance")
        let report = try await reconciler.run()
        #expect(report.processed >= 1)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try await store.checkpoint(Reconciler.checkpointName) != nil)
        #expect(try await store.checkpoint(Reconciler.leaseName) == nil, "released at the end of the pass")
    }

    @Test("the checkpoint never moves backwards", arguments: StoreKind.allCases)
    func checkpointOnlyForward(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let reconciler = try #require(try await fixture.server.reconciler)
        let store = try await fixture.store
        let now = Date()
        _ = try await reconciler.run(now: now)
        let advanced = try #require(try await store.checkpoint(Reconciler.checkpointName))
        #expect(advanced == String(Int64((now.timeIntervalSince1970 * 1_000).rounded(.down))))
        _ = try await reconciler.run(now: now.addingTimeInterval(-600))
        #expect(try await store.checkpoint(Reconciler.checkpointName) == advanced)
    }

    @Test("a pass that loses its lease mid-pass stops without advancing the checkpoint", arguments: StoreKind.allCases)
    func lostMidPass(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        _ = try await fixture.pay(token: order.appAccountToken)
        let store = try await fixture.store
        // While the pass reads the history, its lease passes to another instance (as when
        // a page takes longer than the lease and another instance takes it over).
        let reconciler = try await fixture.reconciler(holder: "this-instance") { _ in
            try await store.releaseLease(Reconciler.leaseName, holder: "this-instance")
            _ = try await store.acquireLease(Reconciler.leaseName, holder: "other-instance", duration: 60)
            return nil
        }

        await #expect(throws: ReconcilerLeaseError.lost) { try await reconciler.run() }
        #expect(try await store.checkpoint(Reconciler.checkpointName) == nil, "the checkpoint did not move")
        #expect(try await store.checkpoint(Reconciler.leaseName) == "other-instance", "the new holder keeps it")
    }
}
