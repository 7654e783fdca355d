import Foundation
import Ledger

/// `POST /v1/orders`.
struct CreateOrderRequest: Codable, Hashable, Sendable {
    var productId: String
    var quantity: Int?
}

/// An order as the API shows it.
struct OrderBody: Codable, Hashable, Sendable {
    var orderId: String
    var playerId: String
    var productId: String
    var quantity: Int
    /// Pass this to StoreKit as `appAccountToken` (StoreKit 1: `applicationUsername`).
    var appAccountToken: String
    var status: OrderStatus
    var createdAt: Date
    var expiresAt: Date
    var fulfilledBy: String?

    init(_ order: Order) {
        orderId = order.orderId
        playerId = order.playerId
        productId = order.productId
        quantity = order.quantity
        appAccountToken = order.appAccountToken
        status = order.status
        createdAt = order.createdAt
        expiresAt = order.expiresAt
        fulfilledBy = order.fulfilledBy
    }
}

/// `GET /v1/players/me/orders`.
struct OrderList: Codable, Hashable, Sendable {
    /// A page of the player's orders, oldest first.
    var orders: [OrderBody]
    /// The `cursor` of the next page; absent on the last page.
    var nextCursor: String?

    init(_ page: LedgerPage<Order>) {
        self.orders = page.items.map(OrderBody.init)
        self.nextCursor = page.next?.token
    }
}

/// `GET /v1/players/me/wallet`.
struct WalletBody: Codable, Hashable, Sendable {
    var playerId: String
    var balances: [String: Int64]
}
