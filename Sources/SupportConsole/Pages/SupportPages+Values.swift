import Foundation
import Ledger

/// The template values of the ledger's records, formatted in Swift (templates never format).
extension SupportPages {
    /// An entitlement as it stands at `now`: what it unlocks, by which product and
    /// transaction, its state (an entitling state past its end reads `expired`), its end and
    /// renewal intent.
    func values(of entitlement: Entitlement, at now: Date, _ caller: ConsoleCaller) -> [String: any Sendable] {
        let entitled = entitlement.isEntitled(at: now)
        let state = entitlement.state.entitles && !entitled ? EntitlementState.expired : entitlement.state
        var values: [String: any Sendable] = [
            "entitlementId": entitlement.entitlementId, "productId": entitlement.productId,
            "state": state.rawValue, "stateLabel": label("entitlement_state_", state.rawValue, caller),
            "entitled": entitled, "since": ConsoleFormat.date(entitlement.since),
            "until": entitlement.until.map { ConsoleFormat.date($0) } ?? text("entitlement_permanent", caller),
            "ownership": entitlement.ownership.rawValue, "isFamilyShared": entitlement.ownership == .familyShared,
            "transactionId": entitlement.transactionId,
            "transactionHref": ConsoleLinks.transaction(entitlement.transactionId),
        ]
        if let autoRenew = entitlement.autoRenew {
            values["renewal"] =
                autoRenew
                ? text("entitlement_renews_into", caller) + " " + (entitlement.autoRenewProductId ?? "")
                : text("entitlement_renewal_off", caller)
        }
        return values
    }

    /// A purchase: who got it, how, its flags, status and what was refunded (share and money).
    func values(of purchase: Purchase, _ caller: ConsoleCaller) -> [String: any Sendable] {
        var values: [String: any Sendable] = [
            "transactionId": purchase.transactionId,
            "transactionHref": ConsoleLinks.transaction(purchase.transactionId),
            "originalTransactionId": purchase.originalTransactionId,
            "originalHref": ConsoleLinks.original(purchase.originalTransactionId, store: purchase.store),
            "store": purchase.store.rawValue, "storeLabel": label("store_", purchase.store.rawValue, caller),
            "playerId": purchase.playerId, "playerHref": ConsoleLinks.player(purchase.playerId),
            "productId": purchase.productId, "quantity": String(purchase.quantity),
            "environment": purchase.environment.rawValue,
            "environmentLabel": label("environment_", purchase.environment.rawValue, caller),
            "source": purchase.source.rawValue,
            "sourceLabel": label("source_", purchase.source.rawValue, caller),
            "flags": purchase.flags.sorted().map { ["flag": $0, "label": label("flag_", $0, caller)] },
            "hasFlags": !purchase.flags.isEmpty, "status": purchase.status.rawValue,
            "statusLabel": label("purchase_status_", purchase.status.rawValue, caller),
            "refundedShare": ConsoleShare.percent(purchase.refundedShare), "isRefunded": purchase.refundedShare > 0,
            "refunded": refunded(purchase, caller),
            "grants": Self.grants(purchase.grants), "purchaseDate": ConsoleFormat.date(purchase.purchaseDate),
            "deliveredAt": ConsoleFormat.date(purchase.deliveredAt),
        ]
        if let orderId = purchase.orderId {
            values["orderId"] = orderId
            values["orderHref"] = ConsoleLinks.order(orderId)
        }
        if let refundedAt = purchase.refundedAt { values["refundedAt"] = ConsoleFormat.date(refundedAt) }
        if let reason = purchase.refundReason { values["refundReason"] = reasonText(reason, caller) }
        return values
    }

    /// The money refunded of `purchase` at the catalog's list price, as money taken back,
    /// with the share: `−0.30 USD (30%)`; the share alone when the catalog names no price;
    /// `–` for none.
    func refunded(_ purchase: Purchase, _ caller: ConsoleCaller) -> String {
        guard purchase.refundedShare > 0 else { return "–" }
        let share = ConsoleShare.percent(purchase.refundedShare)
        guard let price = listPrice(purchase.productId, quantity: purchase.quantity) else { return share }
        let money = PlayerSummary.refundedMoney(price, share: purchase.refundedShare).formatted
        return caller.language == .simplifiedChinese ? "\(money)（\(share)）" : "\(money) (\(share))"
    }

    /// An order and its state.
    func values(of order: Order, _ caller: ConsoleCaller) -> [String: any Sendable] {
        var values: [String: any Sendable] = [
            "orderId": order.orderId, "orderHref": ConsoleLinks.order(order.orderId), "playerId": order.playerId,
            "playerHref": ConsoleLinks.player(order.playerId), "productId": order.productId,
            "quantity": String(order.quantity), "appAccountToken": order.appAccountToken,
            "status": order.status.rawValue, "statusLabel": label("order_status_", order.status.rawValue, caller),
            "createdAt": ConsoleFormat.date(order.createdAt), "expiresAt": ConsoleFormat.date(order.expiresAt),
        ]
        if let transactionId = order.fulfilledBy {
            values["fulfilledBy"] = transactionId
            values["fulfilledHref"] = ConsoleLinks.transaction(transactionId)
        }
        return values
    }

    /// A history event: when, what, about which player, order and transaction, and its
    /// details as named fields with values for people (``detailRows(of:_:)``).
    func values(of event: HistoryEvent, _ caller: ConsoleCaller) -> [String: any Sendable] {
        var values: [String: any Sendable] = [
            "type": event.type.rawValue, "typeLabel": label("event_", event.type.rawValue, caller),
            "createdAt": ConsoleFormat.date(event.createdAt),
            "detail": detailRows(of: event, caller),
            "hasDetail": !event.detail.isEmpty,
        ]
        if let id = event.id { values["id"] = String(id) }
        if let playerId = event.playerId {
            values["playerId"] = playerId
            values["playerHref"] = ConsoleLinks.player(playerId)
        }
        if let orderId = event.orderId {
            values["orderId"] = orderId
            values["orderHref"] = ConsoleLinks.order(orderId)
        }
        if let transactionId = event.transactionId {
            values["transactionId"] = transactionId
            values["transactionHref"] = ConsoleLinks.transaction(transactionId)
        }
        return values
    }

    /// Grants as rows of item and signed amount, by item.
    static func grants(_ grants: Grants) -> [[String: any Sendable]] {
        grants.sorted { $0.key < $1.key }.map {
            ["item": $0.key, "amount": ConsoleFormat.amount($0.value), "negative": $0.value < 0]
        }
    }
}
