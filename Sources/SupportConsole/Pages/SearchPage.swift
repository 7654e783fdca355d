import Foundation
import Hummingbird
import Ledger
import PurchaseServer

/// One thing a search found: what kind of id it is, the id, and its page.
struct SearchHit: Sendable, Hashable {
    /// `order`, `transaction`, `original_transaction`, `purchase_token`, `player` or
    /// `apple_order`.
    var kind: String
    /// The id found.
    var id: String
    /// The page to open.
    var href: String
}

extension SupportPages {
    /// The longest query the search box takes, in bytes.
    /// A Google Play purchase token fits (at most 512 bytes, as the server takes it).
    static var maximumQueryBytes: Int { 512 }

    /// How many resembling players a search that found nothing lists.
    static var closestPlayers: Int { 10 }

    /// Whether `query` has the shape of an Apple customer order id as the e-mail receipt
    /// prints it (`MK5TTTVWJH`): 8 to 16 capital ASCII letters and digits, at least one a
    /// letter. A lower-case word (`bob`, `zhangsan`) is a mistyped player id, not an order.
    static func looksLikeAppleOrderId(_ query: String) -> Bool {
        (8...16).contains(query.utf8.count)
            && query.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
            && query.utf8.contains { (0x41...0x5A).contains($0) }
    }

    /// `GET /console/search?q=…`: our order id, a transaction id of any store (Apple's, or
    /// Google's order id `GPA.…`), an original transaction id, a Google Play purchase
    /// token, a player id, in that order, and, when the ledger knows none of these, a
    /// transaction id only Apple knows (digits only: the transaction page asks Get
    /// Transaction Info) or an Apple customer order id (``looksLikeAppleOrderId(_:)``, from
    /// the e-mail receipt) for Look Up Order ID.
    /// One hit: a 303 to its page; several: the list; none: `nothing_found`, with the
    /// players whose ids resemble the query (a near miss such as `bob` for `bob_1024`).
    func searchPage(_ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller) async throws
        -> ConsoleOutcome
    {
        let query = (request.uri.queryParameters["q"].map(String.init) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard query.utf8.count <= Self.maximumQueryBytes else {
            throw ConsoleError(code: "query_too_long", status: .badRequest)
        }
        guard !query.isEmpty else {
            return .page(ConsolePage(template: "search", titleKey: "title_search", values: ["query": ""]))
        }
        // No id has control characters (and PostgreSQL cannot be asked about a NUL): such a
        // query finds nothing, and the audit log records it printable.
        let hits = ConsoleText.hasControlCharacters(query) ? [] : try await searchHits(query)
        try await caller.audit(
            action: "search", target: ConsoleText.printable(query), detail: ["hits": String(hits.count)])
        if hits.count == 1, let hit = hits.first { return .redirect(to: hit.href, notice: nil) }
        var page = ConsolePage(
            template: "search", titleKey: "title_search",
            values: [
                "query": query, "searchQuery": query, "hasHits": !hits.isEmpty,
                "hits": hits.map { hit -> [String: any Sendable] in
                    [
                        "kind": hit.kind, "kindLabel": text("search_kind_\(hit.kind)", caller), "id": hit.id,
                        "href": hit.href,
                    ]
                },
            ])
        page.titleDetail = query
        if hits.isEmpty {
            let closest =
                ConsoleText.hasControlCharacters(query)
                ? [] : try await closestPlayers(to: query, limit: Self.closestPlayers)
            page.values["nothingFound"] = true
            page.values["hasClosest"] = !closest.isEmpty
            page.values["closest"] = closest.map { player -> [String: any Sendable] in
                ["id": player, "href": ConsoleLinks.player(player)]
            }
            page.error = ConsoleError(code: "nothing_found", status: .notFound)
            page.status = .notFound
        }
        return .page(page)
    }

    /// What `query` names, in the search's order.
    func searchHits(_ query: String) async throws -> [SearchHit] {
        var hits: [SearchHit] = []
        func add(_ hit: SearchHit) {
            if !hits.contains(where: { $0.href == hit.href }) { hits.append(hit) }
        }
        if try await store.order(id: query) != nil {
            add(SearchHit(kind: "order", id: query, href: ConsoleLinks.order(query)))
        }
        let purchase = try await store.purchase(inAnyStore: query)
        let events = try await store.events(transactionId: query)
        if purchase != nil || !events.isEmpty {
            add(SearchHit(kind: "transaction", id: query, href: ConsoleLinks.transaction(query)))
        }
        for purchase in try await store.purchases(store: .appStore, originalTransactionId: query) {
            add(
                SearchHit(
                    kind: purchase.transactionId == query ? "transaction" : "original_transaction",
                    id: purchase.transactionId, href: ConsoleLinks.transaction(purchase.transactionId)))
        }
        // A Google Play purchase token names its purchase (a subscription's: each renewal).
        for purchase in try await store.purchases(store: .googlePlay, originalTransactionId: query) {
            add(
                SearchHit(
                    kind: "purchase_token", id: purchase.transactionId,
                    href: ConsoleLinks.transaction(purchase.transactionId)))
        }
        if try await store.knowsPlayer(query) {
            add(SearchHit(kind: "player", id: query, href: ConsoleLinks.player(query)))
        }
        guard hits.isEmpty else { return hits }
        if query.utf8.count <= PurchaseServer.maximumTransactionIdBytes,
            query.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        {
            // Apple's transaction ids are digits; its customer order ids have letters.
            add(SearchHit(kind: "transaction", id: query, href: ConsoleLinks.transaction(query)))
        } else if Self.looksLikeAppleOrderId(query) {
            add(SearchHit(kind: "apple_order", id: query, href: ConsoleLinks.appleOrder(query)))
        }
        return hits
    }
}
