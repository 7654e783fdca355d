import Foundation
import Ledger

/// The template values of the player page's compact activity: each order with the
/// purchase-flow steps the device reported for it, the steps of no listed order, and the
/// App Store notifications, one line each (the full events are on the timeline).
extension SupportPages {
    /// The orders (the newest, newest first), each with its purchase-flow steps (oldest
    /// first) among `clientEvents`.
    func orderValues(_ orders: [Order], clientEvents: [HistoryEvent], _ caller: ConsoleCaller)
        -> [[String: any Sendable]]
    {
        let steps = Dictionary(grouping: clientEvents.filter { $0.orderId != nil }) { $0.orderId ?? "" }
        return orders.map { order in
            var row = values(of: order, caller)
            // In the order the ledger recorded them (a batch of events arrives at one instant).
            let flow = (steps[order.orderId] ?? []).sorted { ($0.id ?? 0) < ($1.id ?? 0) }.map(stepValues)
            row["steps"] = flow
            row["hasSteps"] = !flow.isEmpty
            return row
        }
    }

    /// The purchase-flow events of no order among `orders`, newest first, one line each.
    func unorderedStepValues(_ clientEvents: [HistoryEvent], orders: [Order]) -> [[String: any Sendable]] {
        let listed = Set(orders.map(\.orderId))
        return clientEvents.filter { !listed.contains($0.orderId ?? "") }.map(stepValues)
    }

    /// One purchase-flow step: the event's name (as the app sends it) and when it arrived.
    private func stepValues(_ event: HistoryEvent) -> [String: any Sendable] {
        var values: [String: any Sendable] = [
            "name": event.detail["name"] ?? event.type.rawValue, "createdAt": ConsoleFormat.date(event.createdAt),
        ]
        if let id = event.id { values["id"] = String(id) }
        if let transactionId = event.transactionId {
            values["transactionId"] = transactionId
            values["transactionHref"] = ConsoleLinks.transaction(transactionId)
        }
        return values
    }

    /// A notification event in one line: when, what the console calls it, Apple's type and
    /// subtype, and the transaction.
    func notificationValues(_ event: HistoryEvent, _ caller: ConsoleCaller) -> [String: any Sendable] {
        var values: [String: any Sendable] = [
            "type": event.type.rawValue, "typeLabel": label("event_", event.type.rawValue, caller),
            "createdAt": ConsoleFormat.date(event.createdAt),
        ]
        if let id = event.id { values["id"] = String(id) }
        if let type = event.detail["notificationType"] {
            values["appleType"] = [type, event.detail["subtype"]].compactMap { $0 }.joined(separator: " / ")
        }
        if let transactionId = event.transactionId {
            values["transactionId"] = transactionId
            values["transactionHref"] = ConsoleLinks.transaction(transactionId)
        }
        return values
    }
}
