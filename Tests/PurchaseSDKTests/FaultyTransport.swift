import Foundation
import HTTPRouting
import Hummingbird
import PurchaseSDK

/// What goes wrong with the next requests to a path.
enum NetworkFault: Sendable {
    /// The server answers this status (`/test/status/{code}` on the stack), with
    /// `Retry-After: retryAfter` when it is set.
    case status(Int, retryAfter: Int? = nil)
    /// The server does not answer in time (`/test/stall`), so the client times out.
    case stall
    /// The request reaches the server, but the answer is lost on the way back.
    case loseAnswer
}

/// The faults planned, per path suffix, consumed one request at a time.
actor FaultPlan {
    private var planned: [(suffix: String, fault: NetworkFault)] = []
    private(set) var injected = 0

    /// Plans `fault` for the next `times` requests whose path ends with `suffix`.
    func add(_ fault: NetworkFault, times: Int, path suffix: String) {
        planned += Array(repeating: (suffix, fault), count: times)
    }

    /// Drops every fault still planned.
    func clear() {
        planned.removeAll()
    }

    func take(for path: String) -> NetworkFault? {
        guard let index = planned.firstIndex(where: { path.hasSuffix($0.suffix) }) else { return nil }
        injected += 1
        return planned.remove(at: index).fault
    }
}

/// A transport that sends through `base`, except for the planned faults.
struct FaultyTransport: NetworkTransport {
    let base: any NetworkTransport
    let plan: FaultPlan

    func send(_ request: NetworkRequest) async throws -> NetworkResponse {
        switch await plan.take(for: request.url.path) {
        case nil:
            return try await base.send(request)
        case .status(let code, let retryAfter):
            return try await base.send(
                redirected(request, to: "test/status/\(code)", query: retryAfter.map { "retryAfter=\($0)" }))
        case .stall:
            return try await base.send(redirected(request, to: "test/stall"))
        case .loseAnswer:
            _ = try await base.send(request)
            throw URLError(.networkConnectionLost)
        }
    }

    private func redirected(_ request: NetworkRequest, to path: String, query: String? = nil) -> NetworkRequest {
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
        components.path = "/" + path
        components.query = query
        var redirected = request
        redirected.url = components.url!
        return redirected
    }
}

/// The stack's routes behind the faults: a chosen status, and an answer that never comes in time.
enum FaultRoutes {
    @Sendable static func add(to router: Router<StoreKeeperRequestContext>) {
        router.post("test/status/:code") { request, context -> Response in
            let code = Int(context.parameters.get("code") ?? "") ?? 500
            var headers: HTTPFields = [.contentType: "application/json"]
            if let retryAfter = request.uri.queryParameters.get("retryAfter") { headers[.retryAfter] = retryAfter }
            return Response(
                status: .init(code: code), headers: headers,
                body: ResponseBody(
                    byteBuffer: ByteBuffer(string: #"{"error":"injected_fault","message":"injected by the test"}"#)))
        }
        router.post("test/stall") { _, _ -> Response in
            try await Task.sleep(for: .seconds(10))
            return Response(status: .serviceUnavailable)
        }
    }
}
