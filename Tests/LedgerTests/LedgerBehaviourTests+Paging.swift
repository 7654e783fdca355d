import Foundation
import Ledger
import LedgerTestSupport
import Testing

extension LedgerBehaviourTests {
    @Test("the timeline pages by cursor, in time order, nothing skipped or repeated", arguments: StoreKind.allCases)
    func timelinePages(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for _ in 0..<5 { _ = try await store.createOrder(Fixture.order()) }
            _ = try await store.createOrder(Fixture.order(player: "player-2"))
            let whole = try await store.timeline(playerId: "player-1")
            #expect(whole.count == 5)

            var pages: [[HistoryEvent]] = []
            var request = LedgerPageRequest(limit: 2)
            while true {
                let page = try await store.timeline(playerId: "player-1", page: request)
                pages.append(page.items)
                guard let next = page.next else { break }
                let token = try #require(LedgerCursor(token: next.token), "a cursor survives its token")
                request = LedgerPageRequest(after: token, limit: 2)
            }
            #expect(pages.map(\.count) == [2, 2, 1])
            #expect(pages.flatMap { $0 } == whole)
        }
    }

    @Test("a player's orders page by cursor, ties broken by order id", arguments: StoreKind.allCases)
    func orderPages(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let instant = Date(timeIntervalSince1970: 1_750_000_000)
            for _ in 0..<4 {
                var order = Fixture.order()
                order.createdAt = instant
                _ = try await store.createOrder(order)
            }
            _ = try await store.createOrder(Fixture.order())
            let whole = try await store.orders(playerId: "player-1")
            let first = try await store.orders(playerId: "player-1", page: LedgerPageRequest(limit: 3))
            let second = try await store.orders(
                playerId: "player-1", page: LedgerPageRequest(after: first.next, limit: 3))
            #expect(first.items.count == 3)
            #expect(second.next == nil, "the last page has no cursor")
            #expect(first.items + second.items == whole)
            let exact = try await store.orders(playerId: "player-1", page: LedgerPageRequest(limit: 5))
            #expect(exact.items == whole)
            #expect(exact.next == nil, "a page that ends the list exactly has no cursor")
        }
    }

    @Test("client events beyond the per-player retention are deleted, nothing else is", arguments: StoreKind.allCases)
    func clientEventRetention(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let order = try await store.createOrder(Fixture.order())
            func event(_ index: Int) -> ClientEvent {
                ClientEvent(
                    name: "step_\(index)", occurredAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
            }
            try await store.appendClientEvents(playerId: "player-2", events: [event(0)], keep: 3)
            try await store.appendClientEvents(playerId: "player-1", events: (0..<4).map(event), keep: 3)
            try await store.appendClientEvents(playerId: "player-1", events: (4..<6).map(event), keep: 3)

            let timeline = try await store.timeline(playerId: "player-1")
            #expect(timeline.first?.type == .orderCreated, "history other than client events stays")
            #expect(timeline.first?.orderId == order.orderId)
            #expect(
                timeline.filter { $0.type == .clientEvent }.compactMap { $0.detail["name"] } == [
                    "step_3", "step_4", "step_5",
                ])
            #expect(try await store.timeline(playerId: "player-2").count == 1, "another player's events stay")
        }
    }

    @Test("a cursor token the ledger did not make is refused")
    func foreignCursorTokens() {
        for token in ["", "not base64!", "MTIz", "LTE6YQ", "MTo", String(repeating: "QUFB", count: 400)] {
            #expect(LedgerCursor(token: token) == nil, "\(token.prefix(20))")
        }
        let cursor = LedgerCursor(createdAt: Date(timeIntervalSince1970: 1_700_000_000.5), id: "42")
        #expect(LedgerCursor(token: cursor.token) == cursor)
    }
}
