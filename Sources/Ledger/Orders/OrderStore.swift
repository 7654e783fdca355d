import Foundation

/// The ledger's orders: what a player asked to buy, before any store charged it.
public protocol OrderStore: Sendable {
    /// Records a new order and appends an ``HistoryEventType/orderCreated`` event.
    /// Throws ``LedgerError/duplicateOrder(orderId:)`` when the order id or the app account
    /// token is taken. The token is stored lowercased.
    @discardableResult
    func createOrder(_ order: Order) async throws -> Order

    /// The order with this id.
    func order(id: String) async throws -> Order?

    /// The order carrying this app account token (compared case-insensitively).
    func order(appAccountToken: String) async throws -> Order?

    /// The player's orders, oldest first.
    func orders(playerId: String) async throws -> [Order]

    /// A page of the player's orders, oldest first.
    func orders(playerId: String, page: LedgerPageRequest) async throws -> LedgerPage<Order>
}
