import AppStoreModel
import AppStoreVerification
import Foundation
import Hummingbird

extension AppStoreEmulator {
    /// App Store Server API endpoints under `{prefix}/inApps`, behind ES256 JWT auth.
    nonisolated func addServerAPIRoutes<Context: RequestContext>(
        to group: RouterGroup<Context>,
        environment: AppStoreEnvironment
    ) {
        let api = group.group("inApps")
        api.get("v1/transactions/:transactionId") { request, context in
            await self.serverAPI(request, "getTransactionInfo") {
                JSONResponse.make(
                    try await self.transactionInfo(try Self.transactionId(context), environment: environment))
            }
        }
        api.get("v2/history/:transactionId") { request, context in
            await self.serverAPI(request, "getTransactionHistory") {
                let revision = request.uri.queryParameters.get("revision")
                let id = try Self.transactionId(context)
                return JSONResponse.make(
                    try await self.transactionHistory(id, revision: revision, environment: environment))
            }
        }
        api.get("v2/refund/lookup/:transactionId") { request, context in
            await self.serverAPI(request, "getRefundHistory") {
                let revision = request.uri.queryParameters.get("revision")
                let id = try Self.transactionId(context)
                return JSONResponse.make(try await self.refundHistory(id, revision: revision, environment: environment))
            }
        }
        api.get("v1/lookup/:orderId") { request, context in
            await self.serverAPI(request, "lookUpOrderId") {
                JSONResponse.make(
                    try await self.lookUpOrder(try context.parameters.require("orderId"), environment: environment))
            }
        }
        api.post("v1/notifications/history") { request, _ in
            await self.serverAPI(request, "getNotificationHistory") {
                let query = try await JSONResponse.decode(NotificationHistoryRequest.self, from: request)
                try ServerAPIValidation.check(query)
                let token = request.uri.queryParameters.get("paginationToken")
                return JSONResponse.make(
                    try await self.notificationHistory(query, paginationToken: token, environment: environment)
                )
            }
        }
        api.post("v1/notifications/test") { request, _ in
            await self.serverAPI(request, "requestTestNotification") {
                JSONResponse.make(try await self.requestTestNotification(environment: environment))
            }
        }
        for version in ["v1", "v2"] {
            api.put("\(version)/transactions/consumption/:transactionId") { request, context in
                await self.serverAPI(request, "sendConsumptionInformation") {
                    let id = try Self.transactionId(context)
                    let consumption = try await JSONResponse.decode(ConsumptionRequestV1.self, from: request)
                    try ServerAPIValidation.check(consumption)
                    try await self.recordConsumption(id, consumption, environment: environment)
                    return Response(status: .accepted)
                }
            }
        }
    }

    /// Authenticates a Server API request, applies injected faults, then runs `body`.
    /// Every error is answered in Apple's shape, `{"errorCode": …, "errorMessage": …}`.
    private nonisolated func serverAPI(
        _ request: Request,
        _ operation: String,
        _ body: () async throws -> Response
    ) async -> Response {
        await respond {
            do {
                try authenticate(request)
                switch await injectFault(operation, group: "serverAPI") {
                case .outage:
                    throw APIError(
                        status: 503, code: .generalInternalRetryable, "\(operation) is down (injected outage)")
                case .error:
                    throw APIError(
                        status: 500, code: .generalInternalRetryable, "\(operation) failed (injected fault)")
                case .proceed:
                    return try await body()
                }
            } catch let error as APIError {
                throw error
            } catch let error as EmulatorError {
                // A body the emulator could not read: Apple's general codes, the same status.
                throw APIError(
                    status: error.status, code: error.status >= 500 ? .generalInternal : .generalBadRequest,
                    error.message)
            } catch {
                throw APIError(status: 500, code: .generalInternal, "\(error)")
            }
        }
    }

    /// The `transactionId` path parameter, refused (400, 4000006) unless decimal digits.
    private static func transactionId(_ context: some RequestContext) throws -> String {
        try ServerAPIValidation.transactionId(try context.parameters.require("transactionId"))
    }

    /// Checks the bearer token against the API key the emulator issued: 401 otherwise.
    private nonisolated func authenticate(_ request: Request) throws {
        do {
            _ = try serverAPITokenVerifier.verify(authorizationHeader: request.headers[.authorization])
        } catch {
            throw APIError(
                status: 401, code: .generalBadRequest, "unauthorized: \(error.code.rawValue): \(error.message)")
        }
    }
}
