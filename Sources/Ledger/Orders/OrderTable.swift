/// The `orders` table: what players asked to buy (primary key `order_id`, UNIQUE
/// `app_account_token`).
enum OrderTable: LedgerTable {
    static let name = "orders"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case orderId = "order_id"
        case playerId = "player_id"
        case productId = "product_id"
        case quantity
        case appAccountToken = "app_account_token"
        case status
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case fulfilledBy = "fulfilled_by"
    }
}
