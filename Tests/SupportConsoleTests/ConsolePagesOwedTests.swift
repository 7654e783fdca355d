import Foundation
import Ledger
import Testing

@testable import SupportConsole

/// A purchase Apple charged whose notification reached the server without a binding (no
/// app account token, never reported by the app) waits in the owed queue; an agent
/// delivers it to the player who paid through the normal path, once.
@Suite(.serialized)
struct ConsolePagesOwedTests {
    @Test func anUnboundPurchaseIsOwedThenDeliveredOnceToTheNamedPlayer() async throws {
        try await ConsoleFixture.withPages { fixture in
            let paid = try await fixture.pay(for: nil)
            try await fixture.eventually("the owed transaction") {
                try await fixture.store.owedTransactions(learnedBefore: Date(), limit: 50)
                    .contains { $0.transactionId == paid.transactionId }
            }
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let agent = try await fixture.signedIn("ann", role: .agent)

            let viewed = try await viewer.get("/console/owed")
            #expect(viewed.status == 200)
            #expect(viewed.body.contains(#"<table id="owed">"#))
            #expect(viewed.body.contains(#"<tr data-transaction-id="\#(paid.transactionId)">"#))
            #expect(viewed.body.contains(#"id="refund-signals""#))
            #expect(viewed.body.contains(#"id="sandbox-in-production""#))
            #expect(!viewed.body.contains(#"class="deliver inline""#), "a viewer gets no deliver form")
            #expect(!viewed.body.contains(#"id="reconcile""#))
            let refused = try await viewer.submit(
                "/console/owed/\(paid.transactionId)/deliver", form: [("playerId", "bob")], from: "/console/owed")
            #expect(refused.status == 403)
            #expect(refused.errorCode == "forbidden")

            let queue = try await agent.get("/console/owed")
            #expect(
                queue.body.contains(
                    #"<form class="deliver inline" method="post" action="/console/owed/\#(paid.transactionId)/deliver">"#
                ))
            #expect(queue.body.contains(#"id="reconcile""#))
            let apple = try await agent.get("/console/apple-orders/\(paid.appleOrderId)")
            #expect(apple.body.contains(#"data-transaction-id="\#(paid.transactionId)" data-delivered="false""#))
            #expect(apple.body.contains(#"action="/console/owed/\#(paid.transactionId)/deliver""#))
            let missingPlayer = try await agent.submit(
                "/console/owed/\(paid.transactionId)/deliver", form: [("playerId", "  ")], from: "/console/owed")
            #expect(missingPlayer.errorCode == "player_required")

            let delivered = try await agent.submit(
                "/console/owed/\(paid.transactionId)/deliver", form: [("playerId", "bob")], from: "/console/owed")
            #expect(delivered.status == 303, "\(delivered)")
            #expect(delivered.location == "/console/players/bob?notice=delivered")
            let purchase = try #require(
                try await fixture.store.purchase(store: .appStore, transactionId: paid.transactionId))
            #expect(purchase.playerId == "bob")
            #expect(purchase.source == .adminLookup)
            #expect(purchase.flags.contains(PurchaseFlag.unbound))
            #expect(try await fixture.store.wallet(playerId: "bob")["coins"] == 100)
            let owedNow = try await fixture.store.owedTransactions(learnedBefore: Date(), limit: 50)
            #expect(!owedNow.contains { $0.transactionId == paid.transactionId })
            let page = try await agent.get(try #require(delivered.location))
            #expect(page.noticeCode == "delivered")
            #expect(page.body.contains(#"data-transaction-id="\#(paid.transactionId)" data-source="admin_lookup""#))
            #expect(page.body.contains(#"data-event-type="delivered""#))
            #expect(
                try await !agent.get("/console/owed").body.contains(#"data-transaction-id="\#(paid.transactionId)""#))

            let again = try await agent.submit(
                "/console/owed/\(paid.transactionId)/deliver", form: [("playerId", "carol")], from: "/console/owed")
            #expect(again.status == 409)
            #expect(again.errorCode == "already_delivered")
            #expect(again.body.contains("bob"))
            #expect(try await fixture.store.wallet(playerId: "carol").isEmpty)

            let audit = try await fixture.audit("deliver_owed", actor: "ann")
            #expect(audit.map { $0.detail["outcome"] } == ["already_delivered", "delivered"])
            #expect(audit.allSatisfy { $0.target == paid.transactionId })
            #expect(try await !fixture.audit("view_owed", actor: "vera").isEmpty)
        }
    }

    @Test func reconcileNowRunsAPassAndIsAudited() async throws {
        try await ConsoleFixture.withPages { fixture in
            let agent = try await fixture.signedIn("ann", role: .agent)
            let answer = try await agent.submit("/console/owed/reconcile", form: [], from: "/console/owed")
            #expect(answer.status == 303, "\(answer)")
            #expect(answer.location?.hasPrefix("/console/owed?read=") == true, "\(answer)")
            #expect(answer.location?.hasSuffix("&notice=reconciled") == true, "\(answer)")
            let audit = try await fixture.audit("run_reconciler", actor: "ann")
            #expect(audit.first?.detail["outcome"] == "completed")
        }
    }
}
