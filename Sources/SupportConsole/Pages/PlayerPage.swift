import Foundation
import Hummingbird
import Ledger

extension SupportPages {
    /// Events on one page of a player's timeline.
    static var timelinePageSize: Int { 50 }
    /// The most client events and notifications the player page lists, newest first.
    static var sectionLimit: Int { 50 }
    /// The most orders, and the most purchases and manual grants, the player page lists,
    /// newest first (a player makes orders at will; the page stays a page however many there
    /// are).
    static var recordLimit: Int { 200 }

    /// `GET /console/players/{playerId}` (`?before=<event id>` pages the timeline and opens
    /// it; `?timeline=open` opens its first page): first the summary that explains the
    /// wallet, then the purchases and manual grants in one list (refunds in money and share
    /// on their purchase), the entitlements, the grant form for agents and admins, the orders
    /// with the device's purchase-flow steps, the notifications in one line each, and the
    /// full timeline, collapsed and paged.
    func playerPage(_ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller) async throws
        -> ConsolePage
    {
        let playerId = try context.consoleParameter("playerId")
        guard try await store.knowsPlayer(playerId) else { throw ConsoleError.notFound(playerId) }
        let before = request.uri.queryParameters["before"].flatMap { Int64(String($0)) }
        try await caller.audit(action: "view_player", target: playerId)
        var values = try await playerValues(playerId, caller)
        var timeline = try await timelineValues(playerId, before: before, caller)
        timeline["open"] = before != nil || request.uri.queryParameters["timeline"] == "open"
        values["timeline"] = timeline
        var page = ConsolePage(template: "player", titleKey: "title_player", values: values)
        page.titleDetail = playerId
        return page
    }

    /// Everything on the player page but the timeline.
    private func playerValues(_ playerId: String, _ caller: ConsoleCaller) async throws
        -> [String: any Sendable]
    {
        let wallet = try await store.wallet(playerId: playerId)
        let entitlements = try await store.entitlements(playerId: playerId)
        // The wallet explained by sums the database adds up, and only the rows the page lists:
        // a player may have years of purchases.
        let totals = try await store.playerTotals(playerId: playerId)
        let orders = try await store.newestOrders(playerId: playerId, limit: Self.recordLimit)
        let purchases = try await store.newestPurchases(playerId: playerId, limit: Self.recordLimit)
        let manualEntries = try await store.newestManualEntries(playerId: playerId, limit: Self.recordLimit)
        let summary = PlayerSummary(totals: totals, wallet: wallet, manualEntries: manualEntries) {
            listPrice($0, quantity: $1)
        }
        func events(_ types: [HistoryEventType]) async throws -> [HistoryEvent] {
            try await store.timelineNewestFirst(
                playerId: playerId, beforeId: nil, limit: Self.sectionLimit, types: types)
        }
        let clientEvents = try await events([.clientEvent])
        let unordered = unorderedStepValues(clientEvents, orders: orders)
        let notifications = try await events(HistoryEventType.notificationTypes)
        let spends = try await store.spends(playerId: playerId, limit: Self.recordLimit)
        // Oldest first, as the statement's order among equal dates has always been.
        let statement = statementValues(
            purchases: Array(purchases.reversed()), manualGrants: summary.manualGrants, spends: spends, caller)
        let listed = summary.purchaseCount + summary.manualGrantCount + summary.spendCount
        var result: [String: any Sendable] = [
            "playerId": playerId, "playerHref": ConsoleLinks.player(playerId),
            "grantHref": ConsoleLinks.player(playerId) + "/grants",
            "summary": values(of: summary, caller),
            "hasNegativeBalance": wallet.values.contains { $0 < 0 },
            "entitlements": entitlements.map { values(of: $0, at: Date(), caller) },
            "hasEntitlements": !entitlements.isEmpty,
            "orders": orderValues(orders, clientEvents: clientEvents, caller), "hasOrders": !orders.isEmpty,
            "unorderedSteps": unordered, "hasUnorderedSteps": !unordered.isEmpty,
            "statement": statement, "hasStatement": !statement.isEmpty,
            "notifications": notifications.map { notificationValues($0, caller) },
            "hasNotifications": !notifications.isEmpty,
            "grantItems": grantItems(heldBy: wallet).map { ["item": $0] },
        ]
        result["statementLimited"] = newestOf(statement.count, listed, caller)
        result["ordersLimited"] = newestOf(orders.count, totals.orderCount, caller)
        return result
    }

    /// "Showing the newest `shown` of `total`" when the page lists fewer rows than there are,
    /// else nil.
    private func newestOf(_ shown: Int, _ total: Int, _ caller: ConsoleCaller) -> String? {
        guard total > shown else { return nil }
        return text(
            "player_newest_of", caller, ["shown": ConsoleFormat.count(shown), "n": ConsoleFormat.count(total)])
    }

    /// One page of the timeline, newest first, and the link to the next (older) one.
    private func timelineValues(_ playerId: String, before: Int64?, _ caller: ConsoleCaller) async throws
        -> [String: any Sendable]
    {
        let events = try await store.timelineNewestFirst(
            playerId: playerId, beforeId: before, limit: Self.timelinePageSize + 1, types: nil)
        let shown = events.prefix(Self.timelinePageSize)
        var timeline: [String: any Sendable] = [
            // Events of this player do not name them again on their own page.
            "events": shown.map { event in
                var row = values(of: event, caller)
                if event.playerId == playerId { row["playerId"] = nil }
                return row
            },
            "hasEvents": !shown.isEmpty,
        ]
        if events.count > Self.timelinePageSize, let last = shown.last?.id {
            timeline["nextHref"] = ConsoleLinks.player(playerId) + "?before=\(last)#timeline"
        }
        if before != nil { timeline["firstHref"] = ConsoleLinks.player(playerId) + "?timeline=open#timeline" }
        return timeline
    }

    /// The items a grant may name: every item the catalog grants and every item the player
    /// holds, by name.
    func grantItems(heldBy wallet: [String: Int64]) -> [String] {
        let catalog = server.configuration.catalog.products.flatMap(\.grants.keys)
        return Set(catalog).union(wallet.keys).sorted()
    }
}
