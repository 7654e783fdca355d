import Foundation
import Ledger
import Testing

@testable import SupportConsole

/// The player page lists what the player holds: each entitlement with its state, end and
/// renewal intent.
@Suite(.serialized)
struct ConsolePagesEntitlementTests {
    @Test func thePlayerPageListsEntitlements() async throws {
        try await ConsoleFixture.withPages { fixture in
            let order = try await fixture.order("carol", product: "vip.monthly")
            let paid = try await fixture.pay(for: order)
            try await fixture.eventually("the subscription's entitlement") {
                try await fixture.store.entitlement(store: .appStore, originalTransactionId: paid.transactionId) != nil
            }
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let page = try await viewer.get("/console/players/carol")
            #expect(page.status == 200)
            #expect(page.body.contains(#"<tr data-entitlement="vip" data-state="active">"#))
            #expect(page.body.contains("✓ active"))
            #expect(page.body.contains("renews into vip.monthly"))
            #expect(page.body.contains(#"<a href="/console/transactions/\#(paid.transactionId)">"#))

            let empty = try await viewer.get("/console/players/" + (try await fixture.order("dave")).playerId)
            #expect(empty.body.contains("No level pack, pass or subscription."))
        }
    }
}
