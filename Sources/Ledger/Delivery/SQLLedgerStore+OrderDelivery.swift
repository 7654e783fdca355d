import Foundation

extension SQLLedgerStore {
    public func deliverByOrder(_ delivery: Delivery, appAccountToken: String) async throws -> OrderDeliveryResult {
        try LedgerRules.validate(delivery)
        // (A delivery granting nothing has no balance row to answer with: the general path.)
        guard delivery.entitlement == nil, delivery.orderId != nil, !delivery.grants.isEmpty else {
            return .needsBinding
        }
        var delivery = delivery
        delivery.purchaseDate = delivery.purchaseDate.ledgerNormalized
        let plan = OrderDeliveryPlan(delivery, appAccountToken: appAccountToken, at: now)
        guard orderDeliveryInOneStatement else {
            return try await write(LedgerWrites.deliverByOrder(plan, dialect: dialect))
        }
        // One statement: it commits by itself, in one round trip. A deadlock or
        // serialization failure rolled all of it back: run it again, as a transaction is.
        let call = LedgerOperation<[(String, String?, Int64?)]>.rows(try LedgerSQL.deliverByOrder(plan)) {
            (try $0.requiredText("outcome"), try $0.text("item"), try $0.integer("amount"))
        }
        var attempt = 1
        var rows: [(String, String?, Int64?)]
        while true {
            do {
                rows = try await writeAutocommit(call)
                break
            } catch LedgerError.database(_, let sqlState) where LedgerError.isTransient(sqlState) && attempt < 5 {
                attempt += 1
            }
        }
        switch rows.first?.0 {
        case "needs_binding": return .needsBinding
        case "delivered":
            var balances: [String: Int64] = [:]
            for (_, item, amount) in rows {
                guard let item, let amount else { throw LedgerError.corruptRow("a balance row without item") }
                balances[item] = amount
            }
            return .delivered(plan.purchase, balances: balances)
        default:
            throw LedgerError.corruptRow("storekeeper_deliver_by_order answered \(rows.first?.0 ?? "nothing")")
        }
    }
}
