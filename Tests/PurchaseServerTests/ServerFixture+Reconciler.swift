import AppStoreAPI
import Foundation

@testable import PurchaseServer

extension ServerFixture {
    /// A reconciler of this server, holding its lease as `holder`, that reads Apple's
    /// notification history through `intercept` first: `intercept` sees each history
    /// request and either answers it (a fault) or returns `nil` to pass it to the emulator.
    func reconciler(
        holder: String,
        intercept: @escaping @Sendable (HTTPRequestData) async throws -> HTTPResponseData?
    ) async throws -> Reconciler {
        let transport = ClosureHTTPTransport { request in
            if request.url.path.hasSuffix("/notifications/history"), let answer = try await intercept(request) {
                return answer
            }
            return try await AsyncHTTPClientTransport().send(request)
        }
        return Reconciler(
            client: AppStoreServerAPIClient(
                baseURL: await stack.baseURL.appendingPathComponent("sandbox"), key: emulator.identity.apiKey,
                transport: transport),
            intake: try await server.intake, store: try await store, lookback: 86_400, holder: holder,
            gate: PassGate())
    }
}
