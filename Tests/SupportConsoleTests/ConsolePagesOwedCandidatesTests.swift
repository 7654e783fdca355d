import AppStoreEmulator
import Foundation
import Ledger
import Testing

@testable import SupportConsole

/// An owed charge shows what Apple charged and the open orders that may be whose it is,
/// each player one button away from delivery; the reconcile notice says what the pass found.
@Suite(.serialized)
struct ConsolePagesOwedCandidatesTests {
    @Test func anOwedChargeListsItsPriceAndCandidatesAndDeliversToTheChosenOne() async throws {
        try await ConsoleFixture.withPages { fixture in
            let carolsOrder = try await fixture.order("carol")
            let bobsOrder = try await fixture.order("bob")
            _ = try await fixture.order("gem-buyer", product: "coins500")
            let paid = try await fixture.pay(for: nil)
            try await fixture.eventually("the owed transaction") {
                try await fixture.store.owedTransactions(learnedBefore: Date(), limit: 50)
                    .contains { $0.transactionId == paid.transactionId }
            }
            let owed = try #require(
                try await fixture.store.owedTransactions(learnedBefore: Date(), limit: 50)
                    .first { $0.transactionId == paid.transactionId })
            let product = try #require(EmulatorCatalog.sample.product("coins100"))
            #expect(owed.price == product.price && owed.currency == product.currency, "recorded from Apple's data")
            let purchased = try #require(owed.purchaseDate)
            #expect(owed.appAccountToken == nil)

            let agent = try await fixture.signedIn("ann", role: .agent)
            let page = try await agent.get("/console/owed").body
            let row = try #require(Self.row(paid.transactionId, in: page))
            #expect(row.contains(ConsoleMoney(milliunits: product.price, currency: product.currency).formatted))
            #expect(row.contains(ConsoleFormat.date(purchased)))
            #expect(row.contains("Apple&#39;s notification came") || row.contains("Apple's notification came"))
            // Newest order first; the other product's order is no candidate.
            let bob = try #require(row.range(of: #"data-order-id="\#(bobsOrder.orderId)" data-player-id="bob""#))
            let carol = try #require(
                row.range(of: #"data-order-id="\#(carolsOrder.orderId)" data-player-id="carol""#))
            #expect(bob.lowerBound < carol.lowerBound)
            #expect(!row.contains("gem-buyer"))
            #expect(!row.contains("token-match"), "no order carries the charge's token")
            #expect(row.contains(#"<input type="hidden" name="playerId" value="bob">"#))
            #expect(page.contains(#"id="order-id-hint""#))
            #expect(!page.contains("listed after"))

            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let viewed = try #require(Self.row(paid.transactionId, in: try await viewer.get("/console/owed").body))
            #expect(viewed.contains(#"data-player-id="bob""#) && !viewed.contains("deliver-candidate"))

            let delivered = try await agent.submit(
                "/console/owed/\(paid.transactionId)/deliver", form: [("playerId", "bob")], from: "/console/owed")
            #expect(delivered.location == "/console/players/bob?notice=delivered")
            #expect(try await fixture.store.wallet(playerId: "bob")["coins"] == 100)
            #expect(try await fixture.store.wallet(playerId: "carol").isEmpty)
            #expect(try await fixture.audit("deliver_owed", actor: "ann").first?.detail["playerId"] == "bob")
        }
    }

    @Test func theOrderCarryingTheChargesTokenIsMarked() async throws {
        try await ConsoleFixture.withPages { fixture in
            _ = try await fixture.order("bob")
            let carol = try await fixture.order("carol")
            let charged = Date()
            try await fixture.store.appendEvent(
                HistoryEvent(
                    type: .awaitingReport, transactionId: "777000",
                    detail: OwedTransaction.detail(
                        reason: "unbound_transaction", productId: "coins100", source: "reconciler", price: 68_000,
                        currency: "CNY", purchaseDate: charged, appAccountToken: carol.appAccountToken),
                    createdAt: charged))
            let agent = try await fixture.signedIn("ann", role: .agent)
            let row = try #require(Self.row("777000", in: try await agent.get("/console/owed").body))
            #expect(row.contains(#"data-order-id="\#(carol.orderId)" data-player-id="carol" class="token-match""#))
            #expect(row.contains(#"data-player-id="bob">"#), "bob's order is a candidate too, unmarked")
            #expect(row.contains(ConsoleMoney(milliunits: 68_000, currency: "CNY").formatted))
            #expect(row.contains("reconciler found it"))
        }
    }

    @Test func theReconcileNoticeSaysWhatThePassFound() async throws {
        try await ConsoleFixture.withPages { fixture in
            let agent = try await fixture.signedIn("ann", role: .agent)
            let answer = try await agent.submit("/console/owed/reconcile", form: [], from: "/console/owed")
            let location = try #require(answer.location)
            let audit = try #require(try await fixture.audit("run_reconciler", actor: "ann").first)
            let read = try #require(audit.detail["fetched"])
            #expect(location.hasPrefix("/console/owed?read=\(read)&missed=\(audit.detail["processed"] ?? "")&"))
            let page = try await agent.get(location)
            #expect(page.noticeCode == "reconciled")
            #expect(page.body.contains(#"id="reconcile-result""#))
            #expect(page.body.contains("The pass read \(read) notifications"))
            let plain = try await agent.get("/console/owed?read=1&missed=x&handled=0&subscriptions=0")
            #expect(!plain.body.contains(#"id="reconcile-result""#), "a count that is not one shows no summary")
        }
    }

    /// The owed table's row of `transactionId` in `page`, or nil.
    static func row(_ transactionId: String, in page: String) -> String? {
        guard let start = page.range(of: #"<tr data-transaction-id="\#(transactionId)">"#) else { return nil }
        guard let end = page[start.upperBound...].range(of: "</tr>") else { return nil }
        return String(page[start.lowerBound..<end.upperBound])
    }
}
