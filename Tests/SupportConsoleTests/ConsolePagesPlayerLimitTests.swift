import Foundation
import Ledger
import Testing

@testable import SupportConsole

/// A player with more purchases, orders and manual grants than the player page lists: the
/// page lists the newest ``SupportPages/recordLimit`` of each, says how many there are, and
/// its summary counts them all.
@Suite(.serialized)
struct ConsolePagesPlayerLimitTests {
    @Test("210 purchases, 205 orders and 203 manual grants: the newest 200 listed, every one counted")
    func pageListsTheNewestAndCountsAll() async throws {
        try await ConsoleFixture.withPages { fixture in
            let store = try await fixture.store
            let start = Date().addingTimeInterval(-86_400)
            for index in 0..<210 {
                let id = "72000000000\(1_000 + index)"
                _ = try await store.deliver(
                    Delivery(
                        store: .appStore, transactionId: id, originalTransactionId: id, playerId: "whale",
                        productId: "coins100", environment: .sandbox, source: .clientSignedTransaction,
                        grants: ["coins": 100], purchaseDate: start.addingTimeInterval(Double(index))))
            }
            var orders: [String] = []
            for index in 0..<205 {
                let created = start.addingTimeInterval(Double(index))
                let order = try await store.createOrder(
                    Order(
                        orderId: "order-\(1_000 + index)", playerId: "whale", productId: "coins100",
                        appAccountToken: UUID().uuidString.lowercased(), createdAt: created,
                        expiresAt: created.addingTimeInterval(3_600)))
                orders.append(order.orderId)
            }
            for index in 0..<203 {
                _ = try await store.grantManually(
                    playerId: "grantee", grants: ["gems": 1], reason: "ticket \(index)", actor: "ann")
            }
            let agent = try await fixture.signedIn("ann", role: .agent)

            let whale = try await agent.get("/console/players/whale")
            #expect(whale.status == 200)
            let body = whale.body
            #expect(body.contains("210 purchases"))
            #expect(body.contains("207.90 USD"), "all 210 counted in money at 0.99 USD")
            let listed = (10..<210).map { "data-transaction-id=\"72000000000\(1_000 + $0)\"" }
            #expect(listed.allSatisfy(body.contains), "the newest 200 purchases are listed")
            #expect(!body.contains("data-transaction-id=\"720000000001009\""), "the 11th oldest is not")
            let first = try #require(body.range(of: "data-transaction-id=\"720000000001209\""))
            let last = try #require(body.range(of: "data-transaction-id=\"720000000001010\""))
            #expect(first.lowerBound < last.lowerBound, "newest first")
            #expect(body.contains(#"<p class="hint" data-limited="statement">Showing the newest 200 of 210.</p>"#))
            let orderRows = orders.suffix(200).map { "data-order-id=\"\($0)\"" }
            #expect(orderRows.allSatisfy(body.contains), "the newest 200 orders are listed")
            #expect(!body.contains("data-order-id=\"order-1004\""))
            let newestOrder = try #require(body.range(of: "data-order-id=\"order-1204\""))
            let oldestListed = try #require(body.range(of: "data-order-id=\"order-1005\""))
            #expect(newestOrder.lowerBound < oldestListed.lowerBound, "newest first")
            #expect(body.contains(#"<p class="hint" data-limited="orders">Showing the newest 200 of 205.</p>"#))

            let grantee = try await agent.get("/console/players/grantee")
            #expect(grantee.body.contains("203 manual grants"))
            #expect(grantee.body.components(separatedBy: #"<tr data-kind="manual_grant""#).count - 1 == 200)
            // The grants are written by the real clock: two may share a millisecond, so the
            // boundary is checked where no tie can move it.
            #expect(grantee.body.contains("ticket 202<") && grantee.body.contains("ticket 10<"))
            #expect(!grantee.body.contains("ticket 0<"))
            #expect(grantee.body.contains("Showing the newest 200 of 203."))
            #expect(!grantee.body.contains(#"data-limited="orders""#), "no orders: nothing said of them")
        }
    }
}
