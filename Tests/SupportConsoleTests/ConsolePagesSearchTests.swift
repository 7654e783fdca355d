import Foundation
import Ledger
import Testing

@testable import SupportConsole

/// The search box finds each kind of id and lands on its page; the pages show what the
/// ledger and Apple know, and every view is audited.
@Suite(.serialized)
struct ConsolePagesSearchTests {
    @Test func searchByEachKindOfIdLandsOnItsPage() async throws {
        try await ConsoleFixture.withPages { fixture in
            let (order, paid) = try await fixture.deliveredPurchase(to: "alice")
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let expectations: [(String, String)] = [
                (order.orderId, "/console/orders/\(order.orderId)"),
                (paid.transactionId, "/console/transactions/\(paid.transactionId)"),
                ("alice", "/console/players/alice"),
                ("  alice\n", "/console/players/alice"),
                (paid.appleOrderId, "/console/apple-orders/\(paid.appleOrderId)"),
            ]
            for (query, page) in expectations {
                let answer = try await viewer.get("/console/search?q=" + Self.encode(query))
                #expect(answer.status == 303, "\(query): \(answer)")
                #expect(answer.location == page, "\(query)")
                let shown = try await viewer.get(page)
                #expect(shown.status == 200, "\(page): \(shown)")
            }

            let player = try await viewer.get("/console/players/alice")
            #expect(player.body.contains(#"data-item="coins""#))
            #expect(player.body.contains(#"data-transaction-id="\#(paid.transactionId)" data-source="notification""#))
            #expect(player.body.contains(#"data-event-type="delivered""#))
            #expect(player.body.contains(#"data-event-type="notification_received""#))
            #expect(!player.body.contains(#"id="grant""#), "a viewer gets no grant form")

            let transaction = try await viewer.get("/console/transactions/\(paid.transactionId)")
            #expect(transaction.body.contains(#"data-state="signed""#), "\(transaction)")
            #expect(transaction.body.contains(#"data-field="productId">coins100<"#))
            #expect(transaction.body.contains(#"data-field="environment">Sandbox<"#))
            #expect(transaction.body.contains(#"class="delivered-to" href="/console/players/alice""#))
            #expect(transaction.body.contains(#"id="history""#))

            let orderPage = try await viewer.get("/console/orders/\(order.orderId)")
            #expect(orderPage.body.contains(#"id="order-player" href="/console/players/alice""#))
            #expect(
                orderPage.body.contains(#"id="order-transaction" href="/console/transactions/\#(paid.transactionId)""#))

            let appleOrder = try await viewer.get("/console/apple-orders/\(paid.appleOrderId)")
            #expect(appleOrder.body.contains(#"data-transaction-id="\#(paid.transactionId)" data-delivered="true""#))
            #expect(!appleOrder.body.contains(#"class="deliver inline""#))

            for action in ["search", "view_player", "view_transaction", "view_order", "view_apple_order"] {
                #expect(try await !fixture.audit(action, actor: "vera").isEmpty, "\(action)")
            }
            let searches = try await fixture.audit("search", actor: "vera")
            #expect(searches.contains { $0.target == "alice" })
        }
    }

    @Test func aTransactionOnlyAppleKnowsIsFoundByItsIdAndCanBeDelivered() async throws {
        let fixture = try await ConsoleFixture(notifications: false, configure: ConsoleFixture.pagesConfiguration)
        let result: Result<Void, any Error>
        do {
            // Charged on the device, never reported, its notification never sent: the
            // ledger knows nothing of it.
            let paid = try await fixture.pay(for: nil)
            #expect(try await fixture.store.purchase(store: .appStore, transactionId: paid.transactionId) == nil)
            let agent = try await fixture.signedIn("ann", role: .agent)
            let search = try await agent.get("/console/search?q=\(paid.transactionId)")
            #expect(search.status == 303)
            #expect(search.location == "/console/transactions/\(paid.transactionId)")
            let page = try await agent.get("/console/transactions/\(paid.transactionId)")
            #expect(page.status == 200, "\(page)")
            #expect(page.body.contains(#"data-state="signed""#))
            #expect(page.body.contains(#"data-field="productId">coins100<"#))
            #expect(page.body.contains(#"form class="deliver inline""#), "not delivered: the deliver form")
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await fixture.shutdown()
        try result.get()
    }

    @Test func nothingFoundTooLongAndHostileQueries() async throws {
        try await ConsoleFixture.withPages { fixture in
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let hostile = try await viewer.get("/console/search?q=" + Self.encode("<script>alert(1)</script>"))
            #expect(hostile.status == 404)
            #expect(hostile.errorCode == "nothing_found")
            #expect(!hostile.body.contains("<script>alert"))
            #expect(hostile.body.contains("&lt;script&gt;"))
            let long = try await viewer.get("/console/search?q=" + String(repeating: "a", count: 513))
            #expect(long.status == 400)
            #expect(long.errorCode == "query_too_long")
            let unknown = try await viewer.get("/console/transactions/999999999")
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "not_found")
            let unauthenticated = try await fixture.browser().get("/console/search?q=alice")
            #expect(unauthenticated.status == 303)
            #expect(unauthenticated.location?.hasPrefix("/console/sign-in?next=") == true)
        }
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

extension ConsolePagesSearchTests {
    @Test func aNearMissNameListsTheClosestPlayersAndIsNoAppleOrder() async throws {
        try await ConsoleFixture.withPages { fixture in
            for player in ["bob_1024", "Bobby", "carol"] { _ = try await fixture.deliveredPurchase(to: player) }
            let viewer = try await fixture.signedIn("vera", role: .viewer)

            let nearMiss = try await viewer.get("/console/search?q=bob")
            #expect(nearMiss.status == 404)
            #expect(nearMiss.errorCode == "nothing_found")
            #expect(!nearMiss.body.contains("/console/apple-orders/"), "a lower-case word is not an Apple order id")
            let closest = try #require(nearMiss.body.range(of: #"<ul id="closest-players">"#))
            let list = nearMiss.body[closest.upperBound...]
            let bobby = try #require(list.range(of: #"href="/console/players/Bobby""#))
            let bob = try #require(list.range(of: #"href="/console/players/bob_1024""#))
            #expect(bobby.lowerBound < bob.lowerBound, "the shorter prefix match first")
            #expect(!list.contains("/console/players/carol"))

            let nobody = try await viewer.get("/console/search?q=zhaoliu")
            #expect(nobody.status == 404)
            #expect(nobody.body.contains(#"id="no-closest-players""#))
            #expect(!nobody.body.contains("/console/apple-orders/"))

            // A name in another script is found by its romanization, marks and case ignored.
            for player in ["张三", "张三丰", "Émile"] { _ = try await fixture.order(player) }
            for (query, players) in [("zhangsan", ["张三", "张三丰"]), ("ZhangSan", ["张三", "张三丰"]), ("emile", ["Émile"])] {
                let romanized = try await viewer.get("/console/search?q=" + query)
                #expect(romanized.status == 404)
                let found = try #require(romanized.body.range(of: #"<ul id="closest-players">"#))
                var from = found.upperBound
                for player in players {
                    let link = try #require(
                        romanized.body[from...].range(of: "href=\"/console/players/\(Self.encode(player))\""),
                        "\(query) lists \(player)")
                    from = link.upperBound
                }
            }
            let noLetters = try await viewer.get("/console/search?q=---")
            #expect(
                noLetters.body.contains(#"id="no-closest-players""#), "no letters romanize to nothing, not to everyone")

            let orderShaped = try await viewer.get("/console/search?q=MK5TTTVWJH")
            #expect(orderShaped.status == 303)
            #expect(orderShaped.location == "/console/apple-orders/MK5TTTVWJH")
        }
    }
}
