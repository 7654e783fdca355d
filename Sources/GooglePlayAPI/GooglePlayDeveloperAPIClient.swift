import AppStoreAPI
import Foundation
import PlayModel

/// A client for the Google Play Developer API (Android Publisher API v3) of one app:
/// `purchases.products` get, acknowledge and consume, and `purchases.voidedpurchases.list`.
///
/// Every request carries `Authorization: Bearer <token>` from a ``GoogleAccessTokenSource``;
/// a token the API refuses (401) is dropped and the call made once more with a new one.
/// Methods return Google's types and throw ``GooglePlayAPIError``. Purchase tokens are path
/// segments here, percent-encoded, never logged.
public struct GooglePlayDeveloperAPIClient: Sendable {
    /// Google's base URL, `https://androidpublisher.googleapis.com`.
    public static let productionBaseURL = URL(string: "https://androidpublisher.googleapis.com")!

    /// The base URL `androidpublisher/v3/…` is appended to.
    public let baseURL: URL
    /// The app's package name.
    public let packageName: String
    /// Where access tokens come from.
    public let tokens: GoogleAccessTokenSource
    /// The transport requests go through.
    public let transport: any HTTPTransport
    /// How long one call may take, in seconds, token included.
    public let timeout: TimeInterval

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: the API's base URL; Google's by default.
    ///   - packageName: the app's package name.
    ///   - tokens: the access tokens.
    ///   - transport: the transport.
    ///   - timeout: the longest a call may take, in seconds; 30 by default.
    public init(
        baseURL: URL = Self.productionBaseURL, packageName: String, tokens: GoogleAccessTokenSource,
        transport: any HTTPTransport, timeout: TimeInterval = 30
    ) {
        self.baseURL = baseURL
        self.packageName = packageName
        self.tokens = tokens
        self.transport = transport
        self.timeout = timeout
    }

    /// `purchases.products.get`: the purchase `token` of the one-time product `productId`.
    ///
    /// - Throws: ``GooglePlayAPIError``; 404 for an unknown token (reason `notFound`) or
    ///   package (`applicationNotFound`), 400 `purchaseTokenDoesNotMatchProductId`.
    public func productPurchase(productId: String, token: String) async throws(GooglePlayAPIError) -> ProductPurchase {
        try Self.decode(
            ProductPurchase.self, from: try await perform(.get, productPath(productId, token), method: nil, body: nil))
    }

    /// `purchases.products.acknowledge`: acknowledges a paid purchase (Google voids one left
    /// unacknowledged for three days).
    ///
    /// - Throws: ``GooglePlayAPIError``; 400 `invalidPurchaseState` for a purchase not paid
    ///   or already consumed.
    public func acknowledgeProductPurchase(
        productId: String, token: String, developerPayload: String? = nil
    ) async throws(GooglePlayAPIError) {
        _ = try await perform(
            .post, productPath(productId, token), method: "acknowledge",
            body: try Self.acknowledgeBody(developerPayload))
    }

    /// `purchases.products.consume`: consumes a paid purchase, which acknowledges it too;
    /// the user can buy the product again.
    ///
    /// - Throws: ``GooglePlayAPIError``; 400 `invalidPurchaseState` for a purchase not paid
    ///   or already consumed.
    public func consumeProductPurchase(productId: String, token: String) async throws(GooglePlayAPIError) {
        _ = try await perform(.post, productPath(productId, token), method: "consume", body: nil)
    }

    /// `purchases.subscriptionsv2.get`: the subscription purchase `token` (its state, line
    /// items with their expiry, latest order id, acknowledgement, linked purchase token).
    ///
    /// - Throws: ``GooglePlayAPIError``; 404 for an unknown token (reason `notFound`) or
    ///   package (`applicationNotFound`).
    public func subscriptionPurchaseV2(token: String) async throws(GooglePlayAPIError) -> SubscriptionPurchaseV2 {
        try Self.decode(
            SubscriptionPurchaseV2.self,
            from: try await perform(
                .get, applicationPath + ["purchases", "subscriptionsv2", "tokens", token], method: nil, body: nil))
    }

    /// `purchases.subscriptions.acknowledge`: acknowledges a subscription purchase (Google
    /// refunds and revokes one left unacknowledged for three days). Its body,
    /// `SubscriptionPurchasesAcknowledgeRequest`, has the same one field as the product's,
    /// `developerPayload`.
    ///
    /// - Throws: ``GooglePlayAPIError``; 400 `invalidPurchaseState` for a subscription not
    ///   paid.
    public func acknowledgeSubscriptionPurchase(
        subscriptionId: String, token: String, developerPayload: String? = nil
    ) async throws(GooglePlayAPIError) {
        _ = try await perform(
            .post, applicationPath + ["purchases", "subscriptions", subscriptionId, "tokens", token],
            method: "acknowledge", body: try Self.acknowledgeBody(developerPayload))
    }

    /// `purchases.voidedpurchases.list`: one page of the app's voided purchases.
    ///
    /// - Parameters:
    ///   - startTime: the oldest voided time, epoch milliseconds.
    ///   - endTime: the newest voided time, epoch milliseconds.
    ///   - maxResults: the page size.
    ///   - pageToken: the previous page's `tokenPagination.nextPageToken`.
    ///   - type: 0 one-time products only, 1 subscriptions too.
    ///   - includeQuantityBasedPartialRefund: whether quantity-based partial refunds are
    ///     listed too (with `voidedQuantity`).
    /// - Throws: ``GooglePlayAPIError``.
    public func voidedPurchases(
        startTime: Int64? = nil, endTime: Int64? = nil, maxResults: Int? = nil, pageToken: String? = nil,
        type: Int? = nil, includeQuantityBasedPartialRefund: Bool? = nil
    ) async throws(GooglePlayAPIError) -> VoidedPurchasesListResponse {
        var query: [(name: String, value: String)] = []
        if let startTime { query.append(("startTime", String(startTime))) }
        if let endTime { query.append(("endTime", String(endTime))) }
        if let maxResults { query.append(("maxResults", String(maxResults))) }
        if let pageToken { query.append(("token", pageToken)) }
        if let type { query.append(("type", String(type))) }
        if let includeQuantityBasedPartialRefund {
            query.append(("includeQuantityBasedPartialRefund", String(includeQuantityBasedPartialRefund)))
        }
        return try Self.decode(
            VoidedPurchasesListResponse.self,
            from: try await perform(
                .get, applicationPath + ["purchases", "voidedpurchases"], method: nil, body: nil, query: query))
    }

    /// A 2xx response's body as Google's `Value`, or ``GooglePlayAPIError`` `undecodable_response`
    /// naming the type.
    private static func decode<Value: Decodable>(
        _ type: Value.Type, from response: HTTPResponseData
    ) throws(GooglePlayAPIError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw GooglePlayAPIError(
                kind: .undecodableResponse, httpStatus: response.status, message: "not a \(type): \(error)")
        }
    }

    /// The body of an acknowledgement, a product's or a subscription's: both of Google's
    /// request types hold only `developerPayload`.
    private static func acknowledgeBody(_ developerPayload: String?) throws(GooglePlayAPIError) -> Data {
        do {
            return try JSONEncoder().encode(ProductPurchasesAcknowledgeRequest(developerPayload: developerPayload))
        } catch {
            throw GooglePlayAPIError(kind: .invalidRequest, message: "cannot encode the body: \(error)")
        }
    }

    private var applicationPath: [String] { ["androidpublisher", "v3", "applications", packageName] }

    private func productPath(_ productId: String, _ token: String) -> [String] {
        applicationPath + ["purchases", "products", productId, "tokens", token]
    }

    /// Sends a request within ``timeout``, with a token (a new one once after a 401), and
    /// returns the 2xx response. `method` is Google's custom method, `:{method}` after the
    /// last (percent-encoded) segment.
    private func perform(
        _ verb: HTTPRequestMethod, _ path: [String], method: String?, body: Data?,
        query: [(name: String, value: String)] = []
    ) async throws(GooglePlayAPIError) -> HTTPResponseData {
        guard var url = baseURL.appendingAPIPath(path, query: query) else {
            throw GooglePlayAPIError(kind: .invalidRequest, message: "cannot append the path to the base URL")
        }
        if let method {
            guard let custom = URL(string: url.absoluteString + ":" + method) else {
                throw GooglePlayAPIError(kind: .invalidRequest, message: "cannot append :\(method)")
            }
            url = custom
        }
        let request = HTTPRequestData(
            method: verb, url: url,
            headers: body == nil
                ? ["Accept": "application/json"] : ["Accept": "application/json", "Content-Type": "application/json"],
            body: body)
        let (tokens, transport, timeout) = (tokens, transport, timeout)
        do {
            return try await Self.withTimeout(timeout) {
                var attempt = 1
                while true {
                    let token = try await tokens.token()
                    var authorized = request
                    authorized.headers["Authorization"] = "Bearer " + token
                    let response: HTTPResponseData
                    do {
                        response = try await transport.send(authorized)
                    } catch {
                        throw GooglePlayAPIError(kind: .transportFailed, message: "\(error)")
                    }
                    if response.isSuccess { return response }
                    let error = GooglePlayAPIError.http(response)
                    guard error.isUnauthorized, attempt == 1 else { throw error }
                    await tokens.invalidate(token)
                    attempt += 1
                }
            }
        } catch let error as GooglePlayAPIError {
            throw error
        } catch {
            throw GooglePlayAPIError(kind: .transportFailed, message: "\(error)")
        }
    }

    /// `body`'s result, or `transport_failed` when it takes longer than `seconds` (it is
    /// then cancelled).
    private static func withTimeout<Value: Sendable>(
        _ seconds: TimeInterval, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard seconds.isFinite, seconds > 0, seconds < 86_400 else {
            throw GooglePlayAPIError(kind: .invalidRequest, message: "timeout \(seconds) s is not 0 to a day")
        }
        return try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64((seconds * 1_000).rounded())))
                throw GooglePlayAPIError(kind: .transportFailed, message: "no answer within \(seconds) s")
            }
            defer { group.cancelAll() }
            guard let value = try await group.next() else { throw CancellationError() }
            return value
        }
    }
}
