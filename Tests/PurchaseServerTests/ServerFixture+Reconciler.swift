import AppStoreAPI
import AsyncHTTPClient
import Foundation

@testable import PurchaseServer

extension ServerFixture {
    /// A reconciler of this server, holding its lease as `holder`, that sends the requests
    /// whose path contains `path` (by default Apple's notification history) through
    /// `intercept` first: `intercept` either answers one (a fault) or returns `nil` to pass
    /// it to the emulator. Each pass reads `overlap` seconds of history again, and all of its
    /// history (no ``Reconciler/historyBudget``).
    func reconciler(
        holder: String,
        overlap: TimeInterval = ServerConfiguration.defaultReconcilerOverlapSeconds,
        intercepting path: String = "/notifications/history",
        intercept: @escaping @Sendable (HTTPRequestData) async throws -> HTTPResponseData?
    ) async throws -> Reconciler {
        let transport = ClosureHTTPTransport { request in
            if request.url.path.contains(path), let answer = try await intercept(request) {
                return answer
            }
            return try await AsyncHTTPClientTransport(client: .loopback).send(request)
        }
        var reconciler = Reconciler(
            client: AppStoreServerAPIClient(
                baseURL: await stack.baseURL.appendingPathComponent("sandbox"), key: emulator.identity.apiKey,
                transport: transport),
            intake: try await server.intake, store: try await store, lookback: 86_400, holder: holder,
            gate: PassGate(), overlap: overlap)
        // A pass reads all of its history, however slow the machine: a test of the budget sets one.
        reconciler.historyBudget = nil
        return reconciler
    }
}
