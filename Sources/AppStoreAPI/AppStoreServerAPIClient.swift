import AppStoreModel
import AppStoreSigning
import Foundation

/// A client for the App Store Server API.
///
/// Every request carries `Authorization: Bearer <token>`, a token made fresh for it with
/// ``key``. Methods return Apple's response types (signed data stays signed: verify it
/// with `JWSVerifier` before trusting it) and throw ``AppStoreServerAPIError``.
public struct AppStoreServerAPIClient: Sendable {
    /// Apple's production base URL, `https://api.storekit.apple.com`.
    public static let productionBaseURL = URL(string: "https://api.storekit.apple.com")!
    /// Apple's sandbox base URL, `https://api.storekit-sandbox.apple.com`.
    public static let sandboxBaseURL = URL(string: "https://api.storekit-sandbox.apple.com")!

    /// The base URL paths are appended to; an emulator's may carry a path prefix
    /// (`http://127.0.0.1:8080/sandbox`).
    public let baseURL: URL
    /// The key that signs the bearer tokens.
    public let key: AppStoreServerAPIKey
    /// The transport requests go through.
    public let transport: any HTTPTransport
    /// The lifetime of each request's token, in seconds.
    public let tokenLifetime: TimeInterval
    let now: @Sendable () -> Date

    /// Creates a client for a base URL.
    ///
    /// - Parameters:
    ///   - baseURL: the base URL; Apple's production one by default.
    ///   - key: the API key.
    ///   - transport: the transport; AsyncHTTPClient's shared client by default.
    ///   - tokenLifetime: each token's lifetime in seconds, at most 3600; 5 minutes by
    ///     default.
    ///   - now: the clock tokens are issued by.
    public init(
        baseURL: URL = Self.productionBaseURL,
        key: AppStoreServerAPIKey,
        transport: any HTTPTransport = AsyncHTTPClientTransport(),
        tokenLifetime: TimeInterval = 300,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.baseURL = baseURL
        self.key = key
        self.transport = transport
        self.tokenLifetime = tokenLifetime
        self.now = now
    }

    /// Creates a client for one of Apple's environments.
    ///
    /// - Parameters:
    ///   - environment: ``AppStoreEnvironment/sandbox`` for the sandbox URL; any other
    ///     value for production.
    ///   - key: the API key.
    ///   - transport: the transport; AsyncHTTPClient's shared client by default.
    public init(
        environment: AppStoreEnvironment, key: AppStoreServerAPIKey,
        transport: any HTTPTransport = AsyncHTTPClientTransport()
    ) {
        self.init(
            baseURL: environment == .sandbox ? Self.sandboxBaseURL : Self.productionBaseURL, key: key,
            transport: transport)
    }

    /// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`.
    ///
    /// - Parameter transactionId: any transaction id of the customer's.
    /// - Returns: The transaction as a JWS (`signedTransactionInfo`).
    /// - Throws: ``AppStoreServerAPIError``; 404 with ``APIErrorCode/transactionIdNotFound``
    ///   for an unknown id.
    public func getTransactionInfo(transactionId: String) async throws(AppStoreServerAPIError) -> String {
        let response = try await send(
            .get, ["inApps", "v1", "transactions", transactionId], decoding: TransactionInfoResponse.self)
        guard let signed = response.signedTransactionInfo else {
            throw AppStoreServerAPIError(
                kind: .undecodableResponse, message: "no signedTransactionInfo in the response")
        }
        return signed
    }

    /// Get Transaction History (version 2): one page of the customer's transactions,
    /// `GET /inApps/v2/history/{transactionId}?revision=…`.
    ///
    /// - Parameters:
    ///   - transactionId: any transaction id of the customer's.
    ///   - revision: the previous page's ``HistoryResponse/revision``; `nil` for the first.
    /// - Returns: The page.
    /// - Throws: ``AppStoreServerAPIError``.
    public func getTransactionHistory(
        transactionId: String, revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> HistoryResponse {
        try await send(
            .get, ["inApps", "v2", "history", transactionId], query: revision.map { [("revision", $0)] } ?? [],
            decoding: HistoryResponse.self)
    }

    /// Get Refund History (version 2): one page of the customer's refunded transactions,
    /// `GET /inApps/v2/refund/lookup/{transactionId}?revision=…`.
    ///
    /// - Parameters:
    ///   - transactionId: any transaction id of the customer's.
    ///   - revision: the previous page's ``RefundHistoryResponse/revision``; `nil` for the
    ///     first.
    /// - Returns: The page.
    /// - Throws: ``AppStoreServerAPIError``.
    public func getRefundHistory(
        transactionId: String, revision: String? = nil
    ) async throws(AppStoreServerAPIError) -> RefundHistoryResponse {
        try await send(
            .get, ["inApps", "v2", "refund", "lookup", transactionId],
            query: revision.map { [("revision", $0)] } ?? [], decoding: RefundHistoryResponse.self)
    }

    /// Look Up Order ID: `GET /inApps/v1/lookup/{orderId}`.
    ///
    /// - Parameter orderId: the order id from the customer's email receipt.
    /// - Returns: The status and the order's transactions.
    /// - Throws: ``AppStoreServerAPIError``.
    public func lookUpOrderId(_ orderId: String) async throws(AppStoreServerAPIError) -> OrderLookupResponse {
        try await send(.get, ["inApps", "v1", "lookup", orderId], decoding: OrderLookupResponse.self)
    }

    /// Get Notification History: one page of the notifications the App Store sent,
    /// `POST /inApps/v1/notifications/history?paginationToken=…`.
    ///
    /// - Parameters:
    ///   - request: the period and filters; send the same one for every page.
    ///   - paginationToken: the previous page's
    ///     ``NotificationHistoryResponse/paginationToken``; `nil` for the first.
    /// - Returns: The page.
    /// - Throws: ``AppStoreServerAPIError``.
    public func getNotificationHistory(
        _ request: NotificationHistoryRequest, paginationToken: String? = nil
    ) async throws(AppStoreServerAPIError) -> NotificationHistoryResponse {
        try await send(
            .post, ["inApps", "v1", "notifications", "history"],
            query: paginationToken.map { [("paginationToken", $0)] } ?? [], body: request,
            decoding: NotificationHistoryResponse.self)
    }

    /// Request a Test Notification: `POST /inApps/v1/notifications/test`; the App Store
    /// then sends a `TEST` notification to the app's notification URL.
    ///
    /// - Returns: The `testNotificationToken` identifying the notification.
    /// - Throws: ``AppStoreServerAPIError``.
    public func requestTestNotification() async throws(AppStoreServerAPIError) -> String {
        let response = try await send(
            .post, ["inApps", "v1", "notifications", "test"], decoding: SendTestNotificationResponse.self)
        guard let token = response.testNotificationToken else {
            throw AppStoreServerAPIError(
                kind: .undecodableResponse, message: "no testNotificationToken in the response")
        }
        return token
    }

    /// Send Consumption Information: `PUT /inApps/v2/transactions/consumption/{transactionId}`,
    /// the answer to a `CONSUMPTION_REQUEST` notification, due within 12 hours, for any
    /// product type. Apple answers 202 Accepted with no body.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction id of the purchase the customer asked a refund for.
    ///   - request: the consumption information; `customerConsented` must be `true`.
    /// - Throws: ``AppStoreServerAPIError``.
    public func sendConsumptionInformation(
        transactionId: String, _ request: ConsumptionRequest
    ) async throws(AppStoreServerAPIError) {
        _ = try await perform(.put, ["inApps", "v2", "transactions", "consumption", transactionId], body: request)
    }

    /// Send Consumption Information V1: `PUT /inApps/v1/transactions/consumption/{transactionId}`,
    /// which Apple now keeps for Advanced Commerce API purchases; use
    /// ``sendConsumptionInformation(transactionId:_:)`` for In-App Purchases. Apple answers
    /// 202 Accepted with no body.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction id of the purchase the customer asked a refund for.
    ///   - request: the consumption information, integer-coded.
    /// - Throws: ``AppStoreServerAPIError``.
    public func sendConsumptionInformationV1(
        transactionId: String, _ request: ConsumptionRequestV1
    ) async throws(AppStoreServerAPIError) {
        _ = try await perform(.put, ["inApps", "v1", "transactions", "consumption", transactionId], body: request)
    }
}
