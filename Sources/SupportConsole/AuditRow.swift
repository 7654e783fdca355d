import Foundation
import Ledger

/// One line of the audit page: a record of the console's own log, or a grant made through
/// the admin API (a ``HistoryEventType/manualGrant`` event ``ManualGrantPath/adminAPI``
/// wrote), both named for people and with their target linked to its page.
struct AuditRow: Sendable {
    /// The action code the page shows a name for (`data-action`), e.g. `view_player`, or
    /// ``adminGrantAction`` for an admin-API grant.
    var action: String
    /// The audit record's id (none for an admin-API grant).
    var id: Int64?
    var actor: String
    var target: String?
    var detail: [String: String]
    /// The client address; none for an admin-API grant (the ledger does not keep it).
    var address: String?
    var createdAt: Date

    /// The action code of a grant made through the admin API.
    static let adminGrantAction = "admin_api_grant"

    /// A record of the console's audit log.
    init(_ record: AuditRecord) {
        self.init(
            action: record.action, id: record.id, actor: record.actor, target: record.target, detail: record.detail,
            address: record.address, createdAt: record.createdAt)
    }

    /// A `manual_grant` event written for the admin API: the actor it named, the player,
    /// the reason and the grants.
    init(adminGrant event: HistoryEvent) {
        self.init(
            action: Self.adminGrantAction, id: nil, actor: event.detail["actor"] ?? "admin", target: event.playerId,
            detail: event.detail.filter { $0.key == "reason" || $0.key == "grants" || $0.key == "negativeBalances" },
            address: nil, createdAt: event.createdAt)
    }

    private init(
        action: String, id: Int64?, actor: String, target: String?, detail: [String: String], address: String?,
        createdAt: Date
    ) {
        self.action = action
        self.id = id
        self.actor = actor
        self.target = target
        self.detail = detail
        self.address = address
        self.createdAt = createdAt
    }

    /// The console page `target` names for this action, if it names one.
    var targetLink: String? {
        guard let target else { return action == "view_owed" ? "/console/owed" : nil }
        switch action {
        case "view_player", "manual_grant", "grant_refused", Self.adminGrantAction: return ConsoleLinks.player(target)
        case "view_transaction", "deliver_owed": return ConsoleLinks.transaction(target)
        case "view_order": return ConsoleLinks.order(target)
        case "view_apple_order": return ConsoleLinks.appleOrder(target)
        case "view_audit": return "/console/audit?actor=" + ConsoleURL.queryValue(target)
        case "search": return "/console/search?q=" + ConsoleURL.queryValue(target)
        default: return nil
        }
    }

    /// The row's values for the audit template, in `language`: the action's name from the
    /// string `audit_action_<code>` (the code itself for an action without one), and its
    /// details as `detailText` (``SupportPages/detailText(_:_:)``).
    func values(_ renderer: ConsoleRenderer, language: ConsoleLanguage, detail detailText: String)
        -> [String: any Sendable]
    {
        let key = "audit_action_" + action
        var row: [String: any Sendable] = [
            "id": id.map { String($0) } ?? "",
            "time": ConsoleFormat.date(createdAt, language: language),
            "actor": actor,
            "actorLink": "/console/audit?actor=" + ConsoleURL.queryValue(actor),
            "action": action,
            "actionName": renderer.has(key) ? renderer.text(key, language) : action,
            "address": address ?? renderer.text("audit_address_admin_api", language),
            "detail": detailText,
            "adminAPI": action == Self.adminGrantAction,
        ]
        if let target { row["target"] = target }
        if action == "view_owed", target == nil { row["target"] = renderer.text("nav_owed", language) }
        if let targetLink { row["targetLink"] = targetLink }
        return row
    }
}
