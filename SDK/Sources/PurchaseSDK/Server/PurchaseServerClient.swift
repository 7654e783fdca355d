import Foundation

/// The purchase server's player API: orders, purchase reports, restores, entitlements and the
/// event log.
public struct PurchaseServerClient: Sendable {
    /// Where the server answers (`https://api.example.com`, without `/v1`).
    public let baseURL: URL
    private let transport: any NetworkTransport

    /// Creates a client.
    public init(baseURL: URL, transport: any NetworkTransport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.transport = transport
    }

    /// `POST /v1/orders`: an order whose token binds the coming transaction to the player.
    func createOrder(productId: String, quantity: Int, token: String) async throws(ServerCallError) -> ServerOrder {
        let response = try await post(
            "v1/orders", body: OrderRequestBody(productId: productId, quantity: quantity), token: token)
        guard response.status == 201 else { throw Self.failure(response) }
        return try Self.decode(ServerOrder.self, from: response)
    }

    /// `GET /v1/players/me/orders/{orderId}`: one of the player's orders, as it stands now.
    func order(orderId: String, token: String) async throws(ServerCallError) -> ServerOrder {
        let response = try await get(
            baseURL.appendingPathComponent("v1/players/me/orders").appendingPathComponent(orderId), token: token)
        guard response.status == 200 else { throw Self.failure(response) }
        return try Self.decode(ServerOrder.self, from: response)
    }

    /// `POST /v1/purchases`: the server verifies and delivers, once.
    func report(_ report: PurchaseReportBody, token: String) async throws(ServerCallError) -> ServerDelivery {
        let response = try await post("v1/purchases", body: report, token: token)
        guard response.status == 200 else { throw Self.failure(response) }
        return try Self.decode(ServerDelivery.self, from: response)
    }

    /// `POST /v1/events`: a batch of the player's purchase-flow events.
    func sendEvents(_ events: [PurchaseEvent], token: String) async throws(ServerCallError) {
        let response = try await post("v1/events", body: EventBatchBody(events: events), token: token)
        guard (200..<300).contains(response.status) else { throw Self.failure(response) }
    }

    /// `GET /v1/players/me/entitlements`: the player's entitlements, entitling or not.
    func entitlements(token: String) async throws(ServerCallError) -> [PlayerEntitlement] {
        let response = try await get(baseURL.appendingPathComponent("v1/players/me/entitlements"), token: token)
        guard response.status == 200 else { throw Self.failure(response) }
        return try Self.checked(try Self.decode(EntitlementsAnswer.self, from: response).entitlements)
    }

    /// `POST /v1/purchases/restore`: the server re-links the account's current transactions
    /// (1 to 100, signed or named in the app receipt) to the player as its transfer policy
    /// says, and answers each one's verdict and the player's entitlements after it. An
    /// answer without exactly one result per transaction is unreadable.
    func restore(_ body: RestoreRequestBody, token: String) async throws(ServerCallError)
        -> (results: [RestoreAnswer.Result], entitlements: [PlayerEntitlement])
    {
        let response = try await post("v1/purchases/restore", body: body, token: token)
        guard response.status == 200 else { throw Self.failure(response) }
        let answer = try Self.decode(RestoreAnswer.self, from: response)
        guard answer.results.count == body.count else { throw .retryable(reason: "unreadable_answer") }
        return (answer.results, try Self.checked(answer.entitlements))
    }

    private func get(_ url: URL, token: String) async throws(ServerCallError) -> NetworkResponse {
        do {
            return try await transport.send(
                NetworkRequest(method: "GET", url: url, headers: ["Authorization": "Bearer \(token)"]))
        } catch {
            throw .retryable(reason: "network_error")
        }
    }

    private func post(_ path: String, body: some Encodable, token: String) async throws(ServerCallError)
        -> NetworkResponse
    {
        let request = NetworkRequest(
            method: "POST", url: baseURL.appendingPathComponent(path),
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
            body: try? JSONEncoder().encode(body))
        do {
            return try await transport.send(request)
        } catch {
            throw .retryable(reason: "network_error")
        }
    }

    /// Sorts a non-success answer: retry on 202, 401, 408, 429 and 5xx (after the
    /// `Retry-After` of a 429 or 503, e.g. a server shedding load with `overloaded`);
    /// otherwise the server's stable reason (`reason`, else `error`) is a refusal for good.
    static func failure(_ response: NetworkResponse) -> ServerCallError {
        let body = try? JSONDecoder().decode(ErrorBody.self, from: response.body)
        let reason = body?.reason ?? body?.error ?? "http_\(response.status)"
        switch response.status {
        case 429, 503: return .retryable(reason: reason, retryAfter: response.retryAfter)
        case 202, 401, 408, 500...: return .retryable(reason: reason)
        default: return .rejected(reason: reason, message: body?.message ?? "HTTP \(response.status)")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from response: NetworkResponse) throws(ServerCallError)
        -> T
    {
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw .retryable(reason: "unreadable_answer")
        }
    }

    /// The entitlements of an answer, each checked; one out of bounds makes the answer unreadable.
    private static func checked(_ bodies: [EntitlementBody]) throws(ServerCallError) -> [PlayerEntitlement] {
        do {
            return try bodies.map { body throws(AnswerError) in try body.entitlement() }
        } catch {
            throw .retryable(reason: "unreadable_answer")
        }
    }

    private struct OrderRequestBody: Encodable {
        var productId: String
        var quantity: Int
    }

    private struct EventBatchBody: Encodable {
        var events: [PurchaseEvent]
    }

    /// The error fields of the server's answers: `{status, reason, message}` for purchase
    /// refusals, `{error, message}` for the rest.
    private struct ErrorBody: Decodable {
        var reason: String?
        var error: String?
        var message: String?
    }
}
