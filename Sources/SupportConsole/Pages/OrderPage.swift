import Foundation
import Hummingbird
import Ledger

extension SupportPages {
    /// `GET /console/orders/{orderId}`: our order, its player, the transaction that
    /// fulfilled it (with its purchase) and its events.
    func orderPage(_ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller) async throws
        -> ConsolePage
    {
        let orderId = try context.consoleParameter("orderId")
        guard let order = try await store.order(id: orderId) else { throw ConsoleError.notFound(orderId) }
        try await caller.audit(action: "view_order", target: orderId)
        let events = try await store.events(orderId: orderId)
        var values: [String: any Sendable] = [
            "order": self.values(of: order, caller),
            "history": events.reversed().map { self.values(of: $0, caller) }, "hasHistory": !events.isEmpty,
        ]
        if let transactionId = order.fulfilledBy,
            let purchase = try await store.purchase(inAnyStore: transactionId)
        {
            values["purchase"] = self.values(of: purchase, caller)
        }
        var page = ConsolePage(template: "order", titleKey: "title_order", values: values)
        page.titleDetail = orderId
        return page
    }
}
