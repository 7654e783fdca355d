import AppStoreModel
import AppStoreVerification
import Foundation
import Hummingbird

extension AppStoreEmulator {
    /// App Store Server API endpoints under `{prefix}/inApps`, behind ES256 JWT auth: one
    /// route per operation, grouped as Apple's documentation groups them. Each handler reads
    /// the path and query, decodes the body, and hands them to the emulator's operation of
    /// the same name; ``serverAPI(_:_:_:)`` does authentication, faults and error answers.
    nonisolated func addServerAPIRoutes<Context: RequestContext>(
        to group: RouterGroup<Context>,
        environment: AppStoreEnvironment
    ) {
        let api = group.group("inApps")
        addAppDataRoutes(to: api, environment: environment)

        // MARK: Transaction information

        api.get("v1/transactions/:transactionId") { request, context in
            await self.serverAPI(request, .getTransactionInfo) {
                JSONResponse.make(
                    try await self.transactionInfo(try Self.transactionId(context), environment: environment))
            }
        }
        for version in [TransactionHistoryVersion.v1, .v2] {
            api.get("\(version.rawValue)/history/:transactionId") { request, context in
                await self.serverAPI(request, .getTransactionHistory) {
                    let id = try Self.transactionId(context)
                    let query = request.uri.queryParameters
                    let (history, excludeRevoked) = try ServerAPIValidation.transactionHistoryRequest(query)
                    return JSONResponse.make(
                        try await self.transactionHistory(
                            id, history, excludeRevoked: excludeRevoked, revision: query.get("revision"),
                            version: version, environment: environment))
                }
            }
        }
        api.post("v1/transactions/:transactionId/finish") { request, context in
            await self.serverAPI(request, .finishTransaction) {
                try await self.finishTransaction(try Self.transactionId(context), environment: environment)
                return Response(status: .ok)
            }
        }
        api.put("v1/transactions/:transactionId/appAccountToken") { request, context in
            await self.serverAPI(request, .setAppAccountToken) {
                let id = try Self.transactionId(context)
                let body = try await JSONResponse.decode(UpdateAppAccountTokenRequest.self, from: request)
                let token = try ServerAPIValidation.appAccountToken(body)
                try await self.setAppAccountToken(id, token, environment: environment)
                return Response(status: .ok)
            }
        }

        // MARK: Refund lookup and order ID lookup

        api.get("v2/refund/lookup/:transactionId") { request, context in
            await self.serverAPI(request, .getRefundHistory) {
                let id = try Self.transactionId(context)
                let revision = request.uri.queryParameters.get("revision")
                return JSONResponse.make(try await self.refundHistory(id, revision: revision, environment: environment))
            }
        }
        api.get("v1/lookup/:orderId") { request, context in
            await self.serverAPI(request, .lookUpOrderId) {
                JSONResponse.make(
                    try await self.lookUpOrder(try context.parameters.require("orderId"), environment: environment))
            }
        }

        // MARK: Consumption information

        api.put("v2/transactions/consumption/:transactionId") { request, context in
            await self.serverAPI(request, .sendConsumptionInformation) {
                let id = try Self.transactionId(context)
                let consumption = try await JSONResponse.decode(ConsumptionRequest.self, from: request)
                try await self.recordConsumption(id, consumption, environment: environment)
                return Response(status: .accepted)
            }
        }
        api.put("v1/transactions/consumption/:transactionId") { request, context in
            await self.serverAPI(request, .sendConsumptionInformation) {
                try await self.refuseConsumptionV1(try Self.transactionId(context), environment: environment)
            }
        }

        // MARK: App Store Server Notifications

        api.post("v1/notifications/history") { request, _ in
            await self.serverAPI(request, .getNotificationHistory) {
                let query = try await JSONResponse.decode(NotificationHistoryRequest.self, from: request)
                let token = request.uri.queryParameters.get("paginationToken")
                return JSONResponse.make(
                    try await self.notificationHistory(query, paginationToken: token, environment: environment))
            }
        }
        api.post("v1/notifications/test") { request, _ in
            await self.serverAPI(request, .requestTestNotification) {
                JSONResponse.make(try await self.requestTestNotification(environment: environment))
            }
        }
        api.get("v1/notifications/test/:testNotificationToken") { request, context in
            await self.serverAPI(request, .getTestNotificationStatus) {
                let token = try context.parameters.require("testNotificationToken")
                return JSONResponse.make(try await self.testNotificationStatus(token, environment: environment))
            }
        }
    }

    /// Authenticates a Server API request, applies injected faults, then runs `body`.
    ///
    /// A request without a valid token gets Apple's 401: `Unauthenticated` and a request id
    /// as plain text, no error code. Every other error is answered in Apple's shape,
    /// `{"errorCode": …, "errorMessage": …}`.
    nonisolated func serverAPI(
        _ request: Request,
        _ operation: ServerAPIOperation,
        _ body: () async throws -> Response
    ) async -> Response {
        guard authenticated(request) else { return Self.unauthenticated() }
        return await respond {
            do {
                switch await injectFault(operation.rawValue, group: "serverAPI") {
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

    /// Whether the bearer token is one the emulator's API key signed, unexpired, for its app.
    private nonisolated func authenticated(_ request: Request) -> Bool {
        (try? serverAPITokenVerifier.verify(authorizationHeader: request.headers[.authorization])) != nil
    }

    /// Apple's 401: plain text with a request id Apple's support can look up (here, a random
    /// one of the same form).
    private static func unauthenticated() -> Response {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        let requestId = String((0..<26).compactMap { _ in alphabet.randomElement() }) + ".0.1"
        return Response(
            status: .unauthorized,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "Unauthenticated\n\nRequest ID: \(requestId)\n"))
        )
    }
}
