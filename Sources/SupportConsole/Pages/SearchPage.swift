import Foundation
import Hummingbird
import Ledger
import PurchaseServer

/// One thing a search found: what kind of id it is, the id, and its page.
struct SearchHit: Sendable, Hashable {
    /// `order`, `transaction`, `original_transaction`, `player` or `apple_order`.
    var kind: String
    /// The id found.
    var id: String
    /// The page to open.
    var href: String
}

extension SupportPages {
    /// The longest query the search box takes, in bytes.
    static var maximumQueryBytes: Int { 256 }

    /// `GET /console/search?q=…`: our order id, a transaction id, an original transaction
    /// id, a player id, in that order, and, when the ledger knows none of these, a
    /// transaction id only Apple knows (digits only: the transaction page asks Get
    /// Transaction Info) or an Apple customer order id (letters and digits, from the e-mail
    /// receipt) for Look Up Order ID.
    /// One hit: a 303 to its page; several: the list; none: `nothing_found`.
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
        let purchase = try await store.purchase(transactionId: query)
        let events = try await store.events(transactionId: query)
        if purchase != nil || !events.isEmpty {
            add(SearchHit(kind: "transaction", id: query, href: ConsoleLinks.transaction(query)))
        }
        for purchase in try await store.purchases(originalTransactionId: query) {
            add(
                SearchHit(
                    kind: purchase.transactionId == query ? "transaction" : "original_transaction",
                    id: purchase.transactionId, href: ConsoleLinks.transaction(purchase.transactionId)))
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
        } else if PurchaseServer.isAppleOrderId(query) {
            add(SearchHit(kind: "apple_order", id: query, href: ConsoleLinks.appleOrder(query)))
        }
        return hits
    }
}
