import Hummingbird
import Ledger

extension PurchaseServer {
    /// `GET /v1/players/me/orders/{orderId}`: one of the player's orders, so that an app
    /// that died while Apple charged can learn whether the order was fulfilled without it
    /// (the server delivered it from Apple's notification and finished it at Apple, so the
    /// store no longer lists the transaction). Another player's order is not found.
    func addPlayerOrderRoute<Context: RequestContext>(to api: RouterGroup<Context>) {
        api.get("players/me/orders/:orderId") { request, context -> Response in
            let playerId = try self.authenticator.player(request)
            let orderId = try context.identifierParameter(.orderId)
            guard let order = try await self.store.order(id: orderId), order.playerId == playerId else {
                throw ServerError.unknownOrder(orderId)
            }
            return APIResponse.json(OrderBody(order))
        }
    }
}
