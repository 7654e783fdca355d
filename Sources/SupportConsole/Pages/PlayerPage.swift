import Foundation
import Hummingbird
import Ledger

extension SupportPages {
    /// Events on one page of a player's timeline.
    static var timelinePageSize: Int { 50 }
    /// The most events of one kind (refunds, client events, notifications) the player page lists.
    static var sectionLimit: Int { 50 }
    /// The most orders and purchases the player page lists, newest first (a player makes
    /// orders at will; the page stays a page however many there are).
    static var recordLimit: Int { 200 }

    /// `GET /console/players/{playerId}` (`?before=<event id>` pages the timeline): the
    /// wallet, the entitlements, orders, purchases, refunds and reversals, the client's purchase-flow events,
    /// the notifications received, the merged timeline newest first, and the grant form
    /// for agents and admins.
    func playerPage(_ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller) async throws
        -> ConsolePage
    {
        let playerId = try context.consoleParameter("playerId")
        guard try await store.knowsPlayer(playerId) else { throw ConsoleError.notFound(playerId) }
        let before = request.uri.queryParameters["before"].flatMap { Int64(String($0)) }
        try await caller.audit(action: "view_player", target: playerId)
        var values = try await playerValues(playerId, caller)
        values["timeline"] = try await timelineValues(playerId, before: before, caller)
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
        let orders = try await store.orders(playerId: playerId)
        let purchases = try await store.purchases(playerId: playerId)
        func events(_ types: [HistoryEventType]) async throws -> [[String: any Sendable]] {
            try await store.timelineNewestFirst(
                playerId: playerId, beforeId: nil, limit: Self.sectionLimit, types: types
            )
            .map { values(of: $0, caller) }
        }
        let negative = wallet.values.contains { $0 < 0 }
        let refunds = try await events([.refunded, .refundReversed])
        let clientEvents = try await events([.clientEvent])
        let notifications = try await events([.notificationReceived, "notification_not_acted_on"])
        return [
            "playerId": playerId, "playerHref": ConsoleLinks.player(playerId),
            "grantHref": ConsoleLinks.player(playerId) + "/grants",
            "wallet": wallet.sorted { $0.key < $1.key }.map { item, balance -> [String: any Sendable] in
                ["item": item, "balance": ConsoleFormat.amount(balance), "negative": balance < 0]
            },
            "hasWallet": !wallet.isEmpty, "hasNegativeBalance": negative,
            "entitlements": entitlements.map { values(of: $0, at: Date(), caller) },
            "hasEntitlements": !entitlements.isEmpty,
            "orders": orders.suffix(Self.recordLimit).reversed().map { values(of: $0, caller) },
            "hasOrders": !orders.isEmpty,
            "purchases": purchases.suffix(Self.recordLimit).reversed().map { values(of: $0, caller) },
            "hasPurchases": !purchases.isEmpty,
            "refunds": refunds, "hasRefunds": !refunds.isEmpty,
            "clientEvents": clientEvents, "hasClientEvents": !clientEvents.isEmpty,
            "notifications": notifications, "hasNotifications": !notifications.isEmpty,
            "grantItems": grantItems(heldBy: wallet).map { ["item": $0] },
        ]
    }

    /// One page of the timeline, newest first, and the link to the next (older) one.
    private func timelineValues(_ playerId: String, before: Int64?, _ caller: ConsoleCaller) async throws
        -> [String: any Sendable]
    {
        let events = try await store.timelineNewestFirst(
            playerId: playerId, beforeId: before, limit: Self.timelinePageSize + 1, types: nil)
        let shown = events.prefix(Self.timelinePageSize)
        var timeline: [String: any Sendable] = [
            "events": shown.map { values(of: $0, caller) }, "hasEvents": !shown.isEmpty,
        ]
        if events.count > Self.timelinePageSize, let last = shown.last?.id {
            timeline["nextHref"] = ConsoleLinks.player(playerId) + "?before=\(last)#timeline"
        }
        if before != nil { timeline["firstHref"] = ConsoleLinks.player(playerId) + "#timeline" }
        return timeline
    }

    /// The items a grant may name: every item the catalog grants and every item the player
    /// holds, by name.
    func grantItems(heldBy wallet: [String: Int64]) -> [String] {
        let catalog = server.configuration.catalog.products.flatMap(\.grants.keys)
        return Set(catalog).union(wallet.keys).sorted()
    }
}
