import Hummingbird
import Ledger

extension PurchaseServer {
    /// `POST /v1/admin/players/{playerId}/spends` (admin key): the game server spends from
    /// the player's wallet. 201 with the balances; the same idempotency key again answers
    /// the recorded spend with 200 and debits nothing; 409 `insufficient_balance` when an
    /// item would go below zero, 409 `idempotency_key_reused` when the key was used for a
    /// different spend; each refusal changes nothing.
    func addSpendRoute<Context: RequestContext>(to admin: RouterGroup<Context>) {
        admin.post("players/:playerId/spends") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let playerId = try context.identifierParameter(.playerId)
            let body = try await APIResponse.decode(SpendRequestBody.self, from: request, limit: self.bodyLimit)
            try RequestField.identifier(body.idempotencyKey, .idempotencyKey, field: "idempotencyKey")
            try RequestField.items(body.items, field: "items")
            let attribution = try AdminAttribution(reason: body.reason, actor: body.actor)
            let result: SpendResult
            do {
                result = try await self.store.spend(
                    SpendRequest(
                        playerId: playerId, idempotencyKey: body.idempotencyKey, items: body.items,
                        reason: attribution.reason, actor: attribution.actor))
            } catch let error as LedgerError {
                switch error {
                case .invalidSpend(let reason): throw ServerError.invalidRequest(reason)
                case .insufficientBalance:
                    throw ServerError("insufficient_balance", error.description, status: .conflict)
                case .idempotencyKeyReused:
                    throw ServerError("idempotency_key_reused", error.description, status: .conflict)
                default: throw error
                }
            }
            return APIResponse.json(SpendAnswer(result), status: result.replayed ? .ok : .created)
        }
    }
}
