import Foundation

extension Entitlement {
    /// Reads an entitlement from a row with ``EntitlementTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<EntitlementTable>(row)
        let autoRenew: Bool?
        switch try row.integer(.autoRenew) {
        case nil: autoRenew = nil
        case 0: autoRenew = false
        case 1: autoRenew = true
        case let value?: throw LedgerError.corruptRow("auto_renew has unknown value \(value)")
        }
        self.init(
            store: try row.enumeration(Store.self, .store),
            originalTransactionId: try row.requiredText(.originalTransactionId),
            playerId: try row.requiredText(.playerId),
            entitlementId: try row.requiredText(.entitlementId),
            productId: try row.requiredText(.productId),
            productType: try row.enumeration(ProductKind.self, .productType),
            transactionId: try row.requiredText(.transactionId),
            state: try row.enumeration(EntitlementState.self, .state),
            since: try row.requiredTimestamp(.startsAt),
            until: try row.timestamp(.endsAt),
            autoRenew: autoRenew,
            autoRenewProductId: try row.text(.autoRenewProductId),
            ownership: try row.enumeration(Ownership.self, .ownership),
            environment: try row.enumeration(PurchaseEnvironment.self, .environment),
            signedAt: try row.requiredTimestamp(.signedAt),
            updatedAt: try row.requiredTimestamp(.updatedAt)
        )
    }
}
