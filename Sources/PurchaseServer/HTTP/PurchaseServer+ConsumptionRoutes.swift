import Foundation
import Hummingbird
import Ledger

extension PurchaseServer {
    /// Adds the consumption-information endpoints: the player's consent
    /// (`/v1/players/me/consumption-consent`), support's view and withdrawal of it, and the
    /// game server's consumption reports (`/v1/admin/transactions/{id}/consumption`): the
    /// player's on `api` (`/v1`), support's and the game server's on `admin` (`/v1/admin`).
    func addConsumptionRoutes<Context: RequestContext>(to api: RouterGroup<Context>, admin: RouterGroup<Context>) {
        let consents = ConsentDesk(store: store, verifier: intake.verifier)
        api.get("players/me/consumption-consent") { request, _ -> Response in
            let playerId = try self.authenticator.player(request)
            return APIResponse.json(try await consents.consent(playerId: playerId))
        }
        api.put("players/me/consumption-consent") { request, _ -> Response in
            let playerId = try self.authenticator.player(request)
            let body = try await APIResponse.body(of: request, limit: self.bodyLimit)
            return APIResponse.json(try await consents.give(playerId: playerId, try Self.giveConsentRequest(body)))
        }
        api.delete("players/me/consumption-consent") { request, _ -> Response in
            let playerId = try self.authenticator.player(request)
            return APIResponse.json(try await consents.withdraw(playerId: playerId, source: .player))
        }

        admin.get("players/:playerId/consumption-consent") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let playerId = try context.identifierParameter(.playerId)
            return APIResponse.json(try await consents.consent(playerId: playerId))
        }
        admin.delete("players/:playerId/consumption-consent") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let playerId = try context.identifierParameter(.playerId)
            let query = request.uri.queryParameters
            let actor = query.get("actor").flatMap { $0.isEmpty ? nil : $0 }
            let reason = query.get("reason").flatMap { $0.isEmpty ? nil : $0 }
            try RequestField.check(actor, "actor", length: 0...128)
            try RequestField.check(reason, "reason", length: 0...1_024)
            return APIResponse.json(
                try await consents.withdraw(
                    playerId: playerId, source: .admin, changedBy: actor ?? "admin", reason: reason))
        }
        admin.post("transactions/:transactionId/consumption") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let transactionId = try context.identifierParameter(.transactionId)
            let body = try await APIResponse.decode(
                ConsumptionReportRequest.self, from: request, limit: self.bodyLimit)
            try RequestField.check(body.reportedBy, "reportedBy", length: 0...128)
            let consumption: Consumption
            switch (body.consumptionPercentage, body.spent) {
            case (let share?, nil): consumption = .share(share)
            case (nil, let spent?):
                try RequestField.items(spent, field: "spent")
                consumption = .spent(spent)
            default: throw ServerError.invalidRequest("send exactly one of consumptionPercentage and spent")
            }
            let report: ConsumptionReport?
            do {
                report = try await self.store.recordConsumption(
                    transactionId: transactionId, consumption,
                    reportedBy: body.reportedBy.flatMap { $0.isEmpty ? nil : $0 })
            } catch let error as LedgerError {
                guard case .invalidGrants(let reason) = error else { throw error }
                throw ServerError.invalidRequest(reason)
            }
            guard let report else { throw ServerError.notFound("delivered transaction \(transactionId)") }
            return APIResponse.json(ConsumptionReportBody(report))
        }
        admin.get("transactions/:transactionId/consumption") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let transactionId = try context.identifierParameter(.transactionId)
            guard let report = try await self.store.consumption(transactionId: transactionId) else {
                throw ServerError.notFound("consumption report for transaction \(transactionId)")
            }
            return APIResponse.json(ConsumptionReportBody(report))
        }
    }

    /// The body of a consent: empty, or a ``GiveConsentRequest``.
    private static func giveConsentRequest(_ body: Data) throws(ServerError) -> GiveConsentRequest {
        // Only a body of no bytes is "no body": whitespace alone is not a JSON document, and
        // consent is never read into a request that does not say it (schemathesis, seed
        // 1610301367: a body of one tab was taken as consent).
        guard !body.isEmpty else { return GiveConsentRequest() }
        do {
            return try APIResponse.decoder.decode(GiveConsentRequest.self, from: body)
        } catch {
            throw .invalidRequest("the body is not a valid GiveConsentRequest (an object with signedAppTransaction)")
        }
    }
}
