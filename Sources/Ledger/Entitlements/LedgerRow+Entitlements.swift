import Foundation

extension Entitlement {
    /// Reads an entitlement from a row with ``LedgerSQL/entitlementColumns``.
    init(row: any LedgerRow) throws {
        let autoRenew: Bool?
        switch try row.integer("auto_renew") {
        case nil: autoRenew = nil
        case 0: autoRenew = false
        case 1: autoRenew = true
        case let value?: throw LedgerError.corruptRow("auto_renew has unknown value \(value)")
        }
        self.init(
            store: try row.enumeration(Store.self, "store"),
            originalTransactionId: try row.requiredText("original_transaction_id"),
            playerId: try row.requiredText("player_id"),
            entitlementId: try row.requiredText("entitlement_id"),
            productId: try row.requiredText("product_id"),
            productType: try row.enumeration(ProductKind.self, "product_type"),
            transactionId: try row.requiredText("transaction_id"),
            state: try row.enumeration(EntitlementState.self, "state"),
            since: try row.requiredTimestamp("starts_at"),
            until: try row.timestamp("ends_at"),
            autoRenew: autoRenew,
            autoRenewProductId: try row.text("auto_renew_product_id"),
            ownership: try row.enumeration(Ownership.self, "ownership"),
            environment: try row.enumeration(PurchaseEnvironment.self, "environment"),
            signedAt: try row.requiredTimestamp("apple_signed_at"),
            updatedAt: try row.requiredTimestamp("updated_at")
        )
    }
}
