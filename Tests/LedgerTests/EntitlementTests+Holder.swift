import Foundation
import Ledger
import LedgerTestSupport
import Testing

extension EntitlementTests {
    @Test(
        "a delivery bound by a holder who no longer holds the chain is refused whole; bound again, it goes through",
        arguments: StoreKind.allCases)
    func deliveryBoundByAStaleHolder(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            var first = F.renewal("5600", period: 0, player: "alice")
            first.boundByHolder = .nobody
            #expect(try await store.deliver(first).isFirstDelivery)
            // A restore moves the chain between the deliverer's read and the renewal's delivery.
            _ = try await store.transferEntitlement(
                store: .appStore, originalTransactionId: "5600", to: "bob", reason: "restore", actor: nil)

            var stale = F.renewal("5600", period: 1, player: "alice")
            stale.boundByHolder = .player("alice")
            await #expect(throws: LedgerError.chainHolderChanged(originalTransactionId: "5600")) {
                try await store.deliver(stale)
            }
            #expect(
                try await store.purchase(store: .appStore, transactionId: "5600-1") == nil, "nothing of it was written")
            #expect(
                try await store.entitlement(store: .appStore, originalTransactionId: "5600")?.transactionId == "5600")

            var unbound = F.renewal("5600", period: 1, player: "carol")
            unbound.boundByHolder = .nobody
            await #expect(throws: LedgerError.chainHolderChanged(originalTransactionId: "5600")) {
                try await store.deliver(unbound)
            }

            var rebound = F.renewal("5600", period: 1, player: "bob")
            rebound.boundByHolder = .player("bob")
            let result = try await store.deliver(rebound)
            #expect(result.isFirstDelivery && result.purchase.playerId == "bob")
            let entitlement = try await store.entitlement(store: .appStore, originalTransactionId: "5600")
            #expect(entitlement?.playerId == "bob" && entitlement?.transactionId == "5600-1")
        }
    }
}
