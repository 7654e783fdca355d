import Foundation
import Hummingbird
import Ledger
import PurchaseServer

/// A compensation form as submitted: checked, before the limit and the confirmation.
struct GrantRequest: Sendable, Hashable {
    /// The item granted (a catalog item or one the player holds).
    var item: String
    /// The amount, non-zero, either sign.
    var amount: Int64
    /// Why (required).
    var reason: String

    /// The longest item name, in characters.
    static let maximumItemLength = 64
    /// The longest reason, in characters.
    static let maximumReasonLength = 1_024
    /// The largest amount either way (the ledger's bound for a manual grant), so that an
    /// amount it would refuse never reaches the confirmation page.
    static let maximumAmount: UInt64 = 1_000_000_000_000

    /// The checked fields of `form`; `invalid_item`, `invalid_amount` (not a whole number
    /// from −10¹² to 10¹² other than 0), `reason_required`, `reason_too_long` or
    /// `invalid_reason` (control characters other than line breaks and tabs) otherwise.
    init(_ form: ConsoleForm, items: [String]) throws(ConsoleError) {
        item = (form["item"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        reason = (form["reason"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Self.maximumItemLength).contains(item.count), items.contains(item) else {
            throw ConsoleError(code: "invalid_item", detail: item.isEmpty ? nil : String(item.prefix(64)))
        }
        let text = (form["amount"] ?? "").trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: "\u{2212}", with: "-")
        guard let amount = Int64(text), amount != 0, amount.magnitude <= Self.maximumAmount else {
            throw ConsoleError(code: "invalid_amount")
        }
        self.amount = amount
        guard !reason.isEmpty else { throw ConsoleError(code: "reason_required") }
        guard reason.count <= Self.maximumReasonLength else { throw ConsoleError(code: "reason_too_long") }
        guard !ConsoleText.hasControlCharacters(reason, allowing: ["\n", "\r", "\t"]) else {
            throw ConsoleError(code: "invalid_reason")
        }
    }

    /// Whether the amount's size is above `limit` (`nil`: no limit).
    func exceeds(_ limit: Int64?) -> Bool {
        guard let limit else { return false }
        return amount.magnitude > limit.magnitude || limit < 0
    }

    /// The audit detail of the grant.
    var auditDetail: [String: String] { ["item": item, "amount": String(amount), "reason": reason] }
}

extension SupportPages {
    /// `POST /console/players/{playerId}/grants` (agent and admin): compensation (补单).
    /// Without `confirmed=1` it answers the confirmation page; an amount above the role's
    /// limit is refused (`over_limit`, audited as `grant_refused`); a confirmed grant goes
    /// to the ledger as a manual grant naming the staff member and the reason, is audited
    /// as `manual_grant`, and the browser goes back to the player page (notice `granted`).
    func grantAction(_ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller, _ form: ConsoleForm)
        async throws -> ConsoleOutcome
    {
        let playerId = try context.consoleParameter("playerId")
        guard try await store.knowsPlayer(playerId) else { throw ConsoleError.notFound(playerId) }
        let wallet = try await store.wallet(playerId: playerId)
        let grant = try GrantRequest(form, items: grantItems(heldBy: wallet))
        let limit = settings.grantLimit(for: caller.role)
        if grant.exceeds(limit) {
            var detail = grant.auditDetail
            detail["refusal"] = "over_limit"
            detail["limit"] = limit.map(String.init)
            try await caller.audit(action: "grant_refused", target: playerId, detail: detail)
            throw ConsoleError(
                code: "over_limit", status: .forbidden, detail: limit.map { ConsoleFormat.count(Int($0)) })
        }
        guard form["confirmed"] == "1" else {
            // The confirmation shows the player's balance: a view of player data, audited.
            try await caller.audit(
                action: "view_player", target: playerId, detail: ["page": "grant_confirm", "item": grant.item])
            var page = ConsolePage(
                template: "grant-confirm", titleKey: "title_grant_confirm",
                values: [
                    "playerId": playerId, "playerHref": ConsoleLinks.player(playerId),
                    "grantHref": ConsoleLinks.player(playerId) + "/grants", "item": grant.item,
                    "amount": String(grant.amount), "amountLabel": ConsoleFormat.amount(grant.amount),
                    "negative": grant.amount < 0, "reason": grant.reason,
                    "balance": ConsoleFormat.amount(wallet[grant.item] ?? 0),
                    "balanceAfter": ConsoleFormat.amount((wallet[grant.item] ?? 0) &+ grant.amount),
                ])
            page.titleDetail = playerId
            return .page(page)
        }
        do {
            _ = try await server.grant(
                playerId: playerId, grants: [grant.item: grant.amount], reason: grant.reason, actor: caller.name)
        } catch let error as ServerError where error.code == "invalid_request" {
            throw ConsoleError(code: "invalid_amount", detail: error.message)
        } catch let error as ServerError where error.code == "invalid_identifier" {
            throw ConsoleError(code: "invalid_identifier", detail: error.message)
        }
        try await caller.audit(action: "manual_grant", target: playerId, detail: grant.auditDetail)
        return .redirect(to: ConsoleLinks.player(playerId), notice: "granted")
    }
}
