import Foundation

extension LedgerRules {
    /// Grants a delivery may carry: named items, positive amounts.
    static func validateDeliveryGrants(_ grants: Grants) throws {
        for (item, amount) in grants {
            guard !item.isEmpty else { throw LedgerError.invalidGrants("empty item name") }
            guard amount > 0 else { throw LedgerError.invalidGrants("\(item): \(amount) is not a positive amount") }
        }
    }

    /// A delivery the ledger can record.
    static func validate(_ delivery: Delivery) throws {
        guard !delivery.transactionId.isEmpty else { throw LedgerError.invalidGrants("empty transaction id") }
        try validateDeliveryGrants(delivery.grants)
        if let entitlement = delivery.entitlement {
            guard !entitlement.entitlementId.isEmpty else { throw LedgerError.invalidGrants("empty entitlement id") }
            if let stackSeconds = entitlement.stackSeconds, stackSeconds <= 0 {
                throw LedgerError.invalidGrants("entitlement period \(stackSeconds) s is not positive")
            }
        }
    }

    /// The event recording a delivery.
    static func deliveredEvent(_ purchase: Purchase) throws -> HistoryEvent {
        HistoryEvent(
            type: .delivered,
            playerId: purchase.playerId,
            orderId: purchase.orderId,
            transactionId: purchase.transactionId,
            store: purchase.store,
            detail: [
                "source": purchase.source.rawValue,
                "productId": purchase.productId,
                "quantity": String(purchase.quantity),
                "environment": purchase.environment.rawValue,
                "grants": LedgerJSON.text(purchase.grants),
                "flags": purchase.flags.sorted().joined(separator: ","),
            ],
            createdAt: purchase.deliveredAt
        )
    }
}
