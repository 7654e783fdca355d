import Foundation
import HTTPRouting
import Hummingbird
import Ledger

extension PurchaseServer {
    /// Adds the HTTP API (docs/openapi.yaml) to `router`: `/healthz`, `/metrics`, the player
    /// API and notification intake under `/v1`, and the admin API under `/v1/admin`; and a
    /// router middleware that answers 405 with `Allow` for a method one of these paths is
    /// not served with, and a JSON 404 `unknown_path` for a path under `/v1/` the server does
    /// not serve.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let existing = Set(router.routes.map(\.description))
        addServerRoutes(to: router)
        let added = router.routes.filter { !existing.contains($0.description) }
        router.add(
            middleware: UnmatchedRequestMiddleware<Context>(
                table: RouteMethodTable(routes: added),
                methodNotAllowed: { request, allowed in
                    let methods = allowed.map(\.rawValue).joined(separator: ", ")
                    return APIResponse.json(
                        ServerError.ErrorBody(
                            error: "method_not_allowed", message: "\(request.method) is not served here; use \(methods)"
                        ),
                        status: .methodNotAllowed)
                },
                unknownPath: { request in
                    guard request.uri.path.hasPrefix("/v1/") else { return nil }
                    return APIResponse.json(
                        ServerError.ErrorBody(
                            error: "unknown_path", message: "the server serves no \(request.method) here"),
                        status: .notFound)
                }))
    }

    private func addServerRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.get("healthz") { _, _ -> Response in
            let answers: Bool
            do {
                _ = try await self.store.checkpoint(Reconciler.checkpointName)
                answers = true
            } catch {
                answers = false
            }
            let writable = answers ? await self.writeProbe.writable() : false
            let health = HealthBody(
                databaseAnswers: answers, writable: writable, additionalRoots: self.additionalRootSubjects)
            return APIResponse.json(health, status: health.status == "ok" ? .ok : .serviceUnavailable)
        }
        router.get("metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4", .xContentTypeOptions: "nosniff"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: self.metrics.exposition())))
        }
        let api = router.group("v1").add(
            middleware: APIMiddleware<Context>(metrics: metrics, logger: logger, writeProbe: writeProbe))
        // Staff keep their tools during a burst: the admin API is not shed (nor are
        // /healthz, /metrics and the console, outside this group).
        let admin = api.group("admin")
        addAdminRoutes(to: admin)
        let shed = api.group().add(
            middleware: AdmissionMiddleware<Context>(
                gate: admission, retryAfterSeconds: configuration.load.retryAfterSeconds))
        addPlayerRoutes(to: shed)
        addPlayerOrderRoute(to: shed)
        addNotificationRoute(to: shed)
        addConsumptionRoutes(to: shed, admin: admin)
    }

    var bodyLimit: BodyLimit {
        BodyLimit(bytes: configuration.maximumBodyBytes, seconds: configuration.load.bodyTimeoutSeconds)
    }

    private func addPlayerRoutes<Context: RequestContext>(to api: RouterGroup<Context>) {
        api.get("products") { _, _ -> Response in
            APIResponse.json(self.configuration.catalog)
        }
        api.post("orders") { request, _ -> Response in
            let playerId = try self.authenticator.player(request)
            let body = try await APIResponse.decode(CreateOrderRequest.self, from: request, limit: self.bodyLimit)
            let order = try await self.desk.createOrder(playerId: playerId, body)
            return APIResponse.json(OrderBody(order), status: .created)
        }
        api.post("purchases") { request, _ -> Response in
            let playerId = try self.authenticator.player(request)
            let report = try await APIResponse.decode(PurchaseReport.self, from: request, limit: self.bodyLimit)
            let (answer, status) = try await self.desk.report(playerId: playerId, report)
            var response = APIResponse.json(answer, status: HTTPResponse.Status(code: status))
            if status == 503 { response.headers[.retryAfter] = "\(DeliveryRefusal.verificationRetryAfterSeconds)" }
            return response
        }
        api.get("players/me/wallet") { request, _ -> Response in
            let playerId = try self.authenticator.player(request)
            return APIResponse.json(
                WalletBody(playerId: playerId, balances: try await self.store.wallet(playerId: playerId)))
        }
        api.get("players/me/entitlements") { request, _ -> Response in
            let playerId = try self.authenticator.player(request)
            return APIResponse.json(
                EntitlementList(
                    playerId: playerId, entitlements: try await self.store.entitlements(playerId: playerId), at: Date())
            )
        }
        api.post("purchases/restore") { request, _ -> Response in
            let playerId = try self.authenticator.player(request)
            let body = try await APIResponse.decode(RestoreRequest.self, from: request, limit: self.bodyLimit)
            return APIResponse.json(try await self.restoreDesk.restore(playerId: playerId, body))
        }
        api.get("players/me/orders") { request, _ -> Response in
            let playerId = try self.authenticator.player(request)
            let page = try await self.store.orders(playerId: playerId, page: PageQuery.pageRequest(request))
            return APIResponse.json(OrderList(page))
        }
        api.post("events") { request, _ -> Response in
            let playerId = try self.authenticator.player(request)
            let batch = try await APIResponse.decode(ClientEventBatch.self, from: request, limit: self.bodyLimit)
            let events = try batch.clientEvents()
            try await self.store.appendClientEvents(
                playerId: playerId, events: events, keep: self.configuration.clientEventsPerPlayer)
            return APIResponse.json(["accepted": events.count], status: .accepted)
        }
    }

    private func addNotificationRoute<Context: RequestContext>(to api: RouterGroup<Context>) {
        api.post("notifications/apple") { request, _ -> Response in
            let body = try await APIResponse.decode(NotificationBody.self, from: request, limit: self.bodyLimit)
            guard let signedPayload = body.signedPayload, !signedPayload.isEmpty else {
                throw ServerError.invalidRequest("the body has no signedPayload")
            }
            let outcome = try await self.intake.receive(signedPayload: signedPayload, source: .notification)
            return APIResponse.json(["status": outcome.rawValue])
        }
        api.post("notifications/google") { request, _ -> Response in
            guard let playIntake = self.playIntake else { throw ServerError.notConfigured("Google Play") }
            let body = try await APIResponse.body(of: request, limit: self.bodyLimit)
            let outcome = try await playIntake.receive(body, authorization: request.headers[.authorization])
            return APIResponse.json(["status": outcome.rawValue])
        }
    }

    private func addAdminRoutes<Context: RequestContext>(to admin: RouterGroup<Context>) {
        addSpendRoute(to: admin)
        admin.get("players/:playerId/timeline") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let playerId = try context.identifierParameter(.playerId)
            let page = try await self.store.timeline(
                playerId: playerId, page: PageQuery.pageRequest(request, numericIds: true))
            return APIResponse.json(TimelineBody(playerId: playerId, page: page))
        }
        admin.get("players/:playerId/entitlements") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let playerId = try context.identifierParameter(.playerId)
            return APIResponse.json(
                EntitlementList(
                    playerId: playerId, entitlements: try await self.store.entitlements(playerId: playerId), at: Date())
            )
        }
        admin.get("players/:playerId/orders") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let playerId = try context.identifierParameter(.playerId)
            let page = try await self.store.orders(playerId: playerId, page: PageQuery.pageRequest(request))
            return APIResponse.json(OrderList(page))
        }
        admin.get("transactions/:transactionId") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let transactionId = try context.identifierParameter(.transactionId)
            let purchase = try await self.store.purchase(inAnyStore: transactionId)
            let events = try await self.store.events(transactionId: transactionId)
            guard purchase != nil || !events.isEmpty else { throw ServerError.notFound("transaction \(transactionId)") }
            return APIResponse.json(TransactionBody(purchase: purchase, events: events))
        }
        admin.get("google-play/purchases/:purchaseToken") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let purchaseToken = try context.identifierParameter(.purchaseToken)
            let purchases = try await self.store.purchases(store: .googlePlay, originalTransactionId: purchaseToken)
            var events: [HistoryEvent] = []
            for purchase in purchases {
                events += try await self.store.events(transactionId: purchase.transactionId)
            }
            guard !purchases.isEmpty else { throw ServerError.notFound("a Google Play purchase with this token") }
            return APIResponse.json(PlayPurchaseBody(purchases: purchases, events: events))
        }
        admin.get("orders/:orderId") { request, context -> Response in
            try self.authenticator.requireAdmin(request)
            let orderId = try context.identifierParameter(.orderId)
            guard let order = try await self.store.order(id: orderId) else { throw ServerError.unknownOrder(orderId) }
            var purchase: Purchase?
            if let transactionId = order.fulfilledBy {
                purchase = try await self.store.purchase(inAnyStore: transactionId)
            }
            return APIResponse.json(
                AdminOrderBody(
                    order: OrderBody(order), purchase: purchase, events: try await self.store.events(orderId: orderId)))
        }
        admin.post("grants") { request, _ -> Response in
            try self.authenticator.requireAdmin(request)
            let body = try await APIResponse.decode(ManualGrantRequest.self, from: request, limit: self.bodyLimit)
            guard !body.playerId.isEmpty, !body.reason.isEmpty, !body.grants.isEmpty else {
                throw ServerError.invalidRequest("playerId, grants and reason are required")
            }
            try RequestField.identifier(body.playerId, .playerId)
            try RequestField.items(body.grants)
            let attribution = try AdminAttribution(reason: body.reason, actor: body.actor)
            let posting: LedgerPosting
            do {
                posting = try await self.store.grantManually(
                    playerId: body.playerId, grants: body.grants, reason: attribution.reason,
                    actor: attribution.actor, via: ManualGrantPath.adminAPI)
            } catch let error as LedgerError {
                guard case .invalidGrants(let reason) = error else { throw error }
                throw ServerError.invalidRequest(reason)
            }
            return APIResponse.json(
                ManualGrantAnswer(
                    entries: posting.entries, balances: posting.balances, negativeBalances: posting.negativeBalances),
                status: .created)
        }
        admin.post("lookup-order") { request, _ -> Response in
            try self.authenticator.requireAdmin(request)
            let body = try await APIResponse.decode(OrderLookupRequest.self, from: request, limit: self.bodyLimit)
            return APIResponse.json(try await self.orderLookupDesk().lookUp(body))
        }
    }
}

/// Apple's notification body (`responseBodyV2`).
private struct NotificationBody: Decodable {
    var signedPayload: String?
}
