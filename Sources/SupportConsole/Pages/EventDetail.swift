import Foundation
import Ledger

/// What one detail the ledger keeps with a history event holds, and so how support reads
/// it: never raw JSON, epoch milliseconds, milliunit shares or bare codes.
enum EventDetailKind: Sendable, Hashable {
    /// Words as written (a message, a reason staff typed).
    case text
    /// An identifier or one of Apple's names, shown as code.
    case code
    /// Epoch milliseconds: a UTC date.
    case date
    /// Milliunits of the whole (100,000 is all): a percentage.
    case share
    /// JSON of item → signed amount: `−30 coins, +5 gems`.
    case items
    /// A code the console names: the string `<prefix><code>`.
    case label(prefix: String)
    /// Comma-separated flag codes, each named.
    case flags
    /// `true` or `false`.
    case yesNo
    /// A player id, linked to the player's page.
    case player
    /// Why: Apple's revocation reason, a code the console names, or words.
    case reason

    /// The kind of each key the server writes (LedgerRules, the intake, the delivery path).
    static let byKey: [String: EventDetailKind] = [
        "occurredAt": .date, "signedDate": .date, "appleSignedDate": .date, "expiresAt": .date, "until": .date,
        "consentGivenAt": .date, "withdrawnAt": .date, "purchaseDate": .date, "currency": .code,
        "via": .label(prefix: "via_"),
        "refundedShare": .share, "previousRefundedShare": .share, "revokedShare": .share,
        "consumptionPercentage": .share,
        "grants": .items, "negativeBalances": .items, "spent": .items, "items": .items, "balances": .items,
        "idempotencyKey": .code,
        "source": .label(prefix: "source_"), "state": .label(prefix: "entitlement_state_"),
        "previousState": .label(prefix: "entitlement_state_"), "environment": .label(prefix: "environment_"),
        "flags": .flags, "retryable": .yesNo, "sampleContentProvided": .yesNo,
        "from": .player, "to": .player, "playerId": .player,
        "reason": .reason, "message": .text, "actor": .text, "changedBy": .text, "withdrawnBy": .text,
        "reportedBy": .text, "quantity": .text, "consentsWithdrawn": .text, "httpStatus": .text,
        // What the audit log keeps with a console action.
        "deliveredTo": .player, "role": .label(prefix: "role_"), "required": .label(prefix: "role_"),
        "totp": .label(prefix: ""), "owed": .text, "hits": .text, "transactions": .text, "limit": .text,
        "amount": .text, "item": .code, "outcome": .code, "refusal": .code, "page": .code, "status": .code,
    ]

    /// The kind of `key`: what the server writes there; an identifier for a key it does not name.
    static func of(_ key: String) -> EventDetailKind {
        byKey[key] ?? .code
    }
}

extension SupportPages {
    /// The details of `event` as rows of a named field and a value for people, in key
    /// order: the server's fields named in the caller's language; a client event's own
    /// attributes (the game's names, not the server's) under their names, as code.
    func detailRows(of event: HistoryEvent, _ caller: ConsoleCaller) -> [[String: any Sendable]] {
        event.detail.sorted { $0.key < $1.key }.map { key, value in
            let gameAttribute =
                event.type == .clientEvent && key != "name" && key != "occurredAt"
            var row: [String: any Sendable] = [
                "key": key, "label": gameAttribute ? key : label("detail_", key, caller),
                "labelIsCode": gameAttribute || !core.renderer.has("detail_" + key),
            ]
            let kind: EventDetailKind = gameAttribute ? .text : EventDetailKind.of(key)
            row["value"] = detailValue(kind, value, caller)
            // Apple's price is milliunits of the detail's currency: money.
            if key == "price", !gameAttribute, let milliunits = Int64(value), let currency = event.detail["currency"] {
                row["value"] = ConsoleMoney(milliunits: milliunits, currency: currency).formatted
                row["isCode"] = false
                return row
            }
            row["isCode"] = kind == .code
            if kind == .player { row["href"] = ConsoleLinks.player(value) }
            return row
        }
    }

    /// A record's details on one line for people: `Label: value; Label: value`, in key
    /// order, each named and read as ``detailRows(of:_:)`` reads an event's.
    func detailText(_ detail: [String: String], _ caller: ConsoleCaller) -> String {
        detail.sorted { $0.key < $1.key }.map { key, value in
            label("detail_", key, caller) + ": " + detailValue(EventDetailKind.of(key), value, caller)
        }
        .joined(separator: "; ")
    }

    /// `value` of a detail of `kind`, for people; the stored text itself when it is not
    /// what the kind expects (a ledger written by an older server, a hand-edited row).
    func detailValue(_ kind: EventDetailKind, _ value: String, _ caller: ConsoleCaller) -> String {
        switch kind {
        case .text, .code, .player:
            return value
        case .date:
            guard let milliseconds = Int64(value), (0...32_503_680_000_000).contains(milliseconds) else { return value }
            return ConsoleFormat.date(Date(timeIntervalSince1970: Double(milliseconds) / 1_000))
        case .share:
            guard let share = Int(value), (0...RefundShare.whole).contains(share) else { return value }
            return ConsoleShare.percent(share)
        case .items:
            guard let data = value.data(using: .utf8),
                let items = try? JSONDecoder().decode([String: Int64].self, from: data)
            else { return value }
            guard !items.isEmpty else { return "–" }
            return items.sorted { $0.key < $1.key }.map { "\(ConsoleFormat.amount($0.value)) \($0.key)" }
                .joined(separator: ", ")
        case .label(let prefix):
            return label(prefix, value, caller)
        case .flags:
            return value.split(separator: ",").map { label("flag_", String($0), caller) }.joined(separator: ", ")
        case .yesNo:
            return value == "true" ? text("yes", caller) : value == "false" ? text("no", caller) : value
        case .reason:
            return reasonText(value, caller)
        }
    }

    /// A reason as support reads it: Apple's revocation reason (`revocation reason 1`) in
    /// Apple's words, a code the console names (each part of Apple's `TYPE/SUBTYPE`), or the
    /// words as written.
    func reasonText(_ reason: String, _ caller: ConsoleCaller) -> String {
        let appleReason = "revocation reason "
        if reason.hasPrefix(appleReason) {
            return label("revocation_reason_", String(reason.dropFirst(appleReason.count)), caller)
        }
        let parts = reason.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1, parts.allSatisfy({ core.renderer.has("reason_" + $0) }) else {
            return label("reason_", reason, caller)
        }
        return parts.map { label("reason_", $0, caller) }.joined(separator: " / ")
    }
}
