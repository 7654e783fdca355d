/// The `entitlements` table: one row per purchase chain (primary key
/// `original_transaction_id`). Its recheck schedule (`recheck_at`, `recheck_failures`) is
/// the reconciler's bookkeeping, named by the statements that use it, not part of an
/// ``Entitlement``.
enum EntitlementTable: LedgerTable {
    static let name = "entitlements"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case store
        case originalTransactionId = "original_transaction_id"
        case playerId = "player_id"
        case entitlementId = "entitlement_id"
        case productId = "product_id"
        case productType = "product_type"
        case transactionId = "transaction_id"
        case state
        case startsAt = "starts_at"
        case endsAt = "ends_at"
        case autoRenew = "auto_renew"
        case autoRenewProductId = "auto_renew_product_id"
        case ownership
        case environment
        /// When the store signed the entitlement's latest word (the column's name is from
        /// before the ledger named stores).
        case signedAt = "apple_signed_at"
        case updatedAt = "updated_at"
    }
}
