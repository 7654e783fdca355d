import Foundation
import Ledger
import LedgerTestSupport
import Testing

extension SupportReadsTests {
    /// An order of `player` for `product` created `created`.
    static func order(_ player: String, product: String = "coins100", created: Date) -> Order {
        var order = Fixture.order(player: player, product: product)
        order.createdAt = created
        order.expiresAt = created.addingTimeInterval(3600)
        return order
    }

    @Test(
        "an owed charge's candidate owners: open orders for its product in the window, the token's order first",
        arguments: StoreKind.allCases)
    func ownerCandidates(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let charged = Date(timeIntervalSince1970: 1_790_000_000)
            let hour: TimeInterval = 3600
            let near = try await store.createOrder(Self.order("bob", created: charged.addingTimeInterval(-60)))
            let earlier = try await store.createOrder(Self.order("carol", created: charged.addingTimeInterval(-hour)))
            _ = try await store.createOrder(Self.order("old", created: charged.addingTimeInterval(-25 * hour)))
            _ = try await store.createOrder(Self.order("after", created: charged.addingTimeInterval(60)))
            _ = try await store.createOrder(Self.order("gems", product: "gems", created: charged))
            let fulfilled = try await store.createOrder(Self.order("paid", created: charged.addingTimeInterval(-30)))
            _ = try await store.deliver(Fixture.delivery(player: "paid", orderId: fulfilled.orderId))
            let tokened = try await store.createOrder(
                Self.order("dave", product: "gems", created: charged.addingTimeInterval(-48 * hour)))

            func candidates(token: String?, limit: Int = 10) async throws -> [String] {
                try await store.ownerCandidates(
                    productId: "coins100", appAccountToken: token, createdFrom: charged.addingTimeInterval(-24 * hour),
                    createdTo: charged, limit: limit
                ).map(\.playerId)
            }
            #expect(try await candidates(token: nil) == ["bob", "carol"])
            #expect(try await candidates(token: tokened.appAccountToken) == ["dave", "bob", "carol"])
            #expect(try await candidates(token: tokened.appAccountToken, limit: 2) == ["dave", "bob"])
            #expect(try await candidates(token: UUID().uuidString.lowercased()) == ["bob", "carol"])
            #expect(try await candidates(token: nil, limit: 0) == [])
            let read = try await store.ownerCandidates(
                productId: "coins100", appAccountToken: nil, createdFrom: charged.addingTimeInterval(-hour),
                createdTo: charged, limit: 10)
            #expect(read == [near, earlier], "the window's bounds are inclusive, and orders read back whole")
        }
    }

    @Test("an owed charge's price, currency, purchase date and token, when recorded", arguments: StoreKind.allCases)
    func owedChargeDetail(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            let start = clock.now
            let purchased = Date(timeIntervalSince1970: (start.timeIntervalSince1970 - 90).rounded(.down))
            let token = UUID().uuidString
            let recorded = OwedTransaction.detail(
                reason: "unbound_transaction", productId: "coins100", source: "reconciler", price: 990,
                currency: "USD", purchaseDate: purchased, appAccountToken: token)
            try await store.appendEvent(
                HistoryEvent(type: .awaitingReport, transactionId: "2001", detail: recorded, createdAt: start))
            try await store.appendEvent(Self.awaitingReport("2002", reason: "unbound_transaction", at: start))
            let garbage = [
                "reason": "unbound_transaction", "productId": "coins100", "source": "notification", "price": "9.90",
                "currency": "usd", "purchaseDate": "yesterday", "appAccountToken": "not-a-uuid",
            ]
            try await store.appendEvent(
                HistoryEvent(type: .awaitingReport, transactionId: "2003", detail: garbage, createdAt: start))
            let noCurrency = ["reason": "unbound_transaction", "productId": "coins100", "price": "990"]
            try await store.appendEvent(
                HistoryEvent(type: .awaitingReport, transactionId: "2004", detail: noCurrency, createdAt: start))

            let queue = try await other.owedTransactions(learnedBefore: start, limit: 10)
            #expect(queue.map(\.transactionId) == ["2001", "2002", "2003", "2004"])
            #expect(
                queue.first
                    == OwedTransaction(
                        store: .appStore,
                        transactionId: "2001", productId: "coins100", reason: "unbound_transaction",
                        source: "reconciler", firstSeenAt: start, lastSeenAt: start, attempts: 1, price: 990,
                        currency: "USD", purchaseDate: purchased, appAccountToken: token.lowercased()))
            for unknown in queue.dropFirst() {
                #expect(unknown.price == nil && unknown.currency == nil, "\(unknown.transactionId)")
                #expect(unknown.purchaseDate == nil && unknown.appAccountToken == nil, "\(unknown.transactionId)")
            }
        }
    }
}
