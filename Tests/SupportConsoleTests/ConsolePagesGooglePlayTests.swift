import Foundation
import Ledger
import Testing

@testable import SupportConsole

/// Google Play in the console: the search finds a Play purchase by Google's order id
/// (`GPA.…`) and by its purchase token, the pages show it beside Apple's with its store
/// (and ask Apple nothing about it), and the owed queue lists a Play charge no player
/// received, without Apple's deliver form.
@Suite(.serialized)
struct ConsolePagesGooglePlayTests {
    static let orderId = "GPA.3372-4150-9088-61902"
    static let token = "play-token-" + String(repeating: "x", count: 300)

    @Test func aPlayPurchaseIsFoundByOrderIdAndTokenAndShownWithItsStore() async throws {
        try await ConsoleFixture.withPages { fixture in
            let (_, paid) = try await fixture.deliveredPurchase(to: "alice")
            _ = try await fixture.store.deliver(
                Delivery(
                    store: .googlePlay, transactionId: Self.orderId, originalTransactionId: Self.token,
                    playerId: "alice", productId: "coins100", environment: .production, source: .clientPlayPurchase,
                    grants: ["coins": 100], purchaseDate: Date()))
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let page = "/console/transactions/\(Self.orderId)"
            for query in [Self.orderId, Self.token] {
                let answer = try await viewer.get("/console/search?q=" + query)
                #expect(answer.status == 303, "\(query.prefix(20)): \(answer)")
                #expect(answer.location == page)
            }

            let transaction = try await viewer.get(page)
            #expect(transaction.status == 200, "\(transaction)")
            #expect(transaction.body.contains(#"<dd data-store="google_play">Google Play</dd>"#))
            #expect(transaction.body.contains(#"class="delivered-to" href="/console/players/alice""#))
            #expect(!transaction.body.contains(#"id="apple-signed""#), "Apple is not asked about Play's ids")

            let player = try await viewer.get("/console/players/alice")
            #expect(player.body.contains(#"data-transaction-id="\#(Self.orderId)""#))
            #expect(player.body.contains(#"data-store="google_play">Google Play<"#))
            #expect(player.body.contains(#"data-transaction-id="\#(paid.transactionId)""#))
            #expect(player.body.contains(#"data-store="app_store">App Store<"#))
        }
    }

    @Test func theOwedQueueListsAPlayChargeWithoutApplesDeliverForm() async throws {
        try await ConsoleFixture.withPages { fixture in
            let owedId = "GPA.1111-2222-3333-44444"
            try await fixture.store.appendEvent(
                HistoryEvent(
                    type: .awaitingReport, transactionId: owedId, store: .googlePlay,
                    detail: OwedTransaction.detail(
                        reason: "unbound", productId: "coins100", source: "notification", price: nil, currency: nil,
                        purchaseDate: Date(), appAccountToken: nil),
                    createdAt: Date()))
            let agent = try await fixture.signedIn("ann", role: .agent)
            let owed = try await agent.get("/console/owed")
            #expect(owed.status == 200, "\(owed)")
            #expect(owed.body.contains(#"<tr data-transaction-id="\#(owedId)">"#))
            #expect(owed.body.contains(#"<td class="owed-charge" data-store="google_play">"#))
            #expect(owed.body.contains("Google Play: delivered when the player"))
            #expect(owed.body.contains("Google Play&#39;s notification came"))
            #expect(!owed.body.contains(#"action="/console/owed/\#(owedId)/deliver""#))
        }
    }
}
