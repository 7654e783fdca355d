import AppStoreModel
import Foundation

/// A client for Apple's verifyReceipt endpoint (deprecated by Apple, still answering).
///
/// It posts to production first and, when production answers 21007 (a sandbox receipt),
/// to the sandbox; starting at the sandbox, a 21008 answer sends the receipt to production.
/// At most one such redirect is followed. Every URL is configuration, so an emulator can
/// stand in for Apple.
public struct VerifyReceiptClient: Sendable {
    /// Apple's production base URL, `https://buy.itunes.apple.com`.
    public static let defaultProductionBaseURL = URL(string: "https://buy.itunes.apple.com")!
    /// Apple's sandbox base URL, `https://sandbox.itunes.apple.com`.
    public static let defaultSandboxBaseURL = URL(string: "https://sandbox.itunes.apple.com")!
    /// The path under each base URL.
    public static let path = "verifyReceipt"

    /// The production base URL; requests go to `<base>/verifyReceipt`.
    public let productionBaseURL: URL
    /// The sandbox base URL; requests go to `<base>/verifyReceipt`.
    public let sandboxBaseURL: URL
    /// The app's shared secret, sent as `password`; needed for auto-renewable
    /// subscriptions.
    public let sharedSecret: String?
    /// Whether to ask for only the latest renewal of each subscription.
    public let excludeOldTransactions: Bool
    /// The transport requests go through.
    public let transport: any HTTPTransport

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - productionBaseURL: the production base URL; Apple's by default.
    ///   - sandboxBaseURL: the sandbox base URL; Apple's by default.
    ///   - sharedSecret: the app's shared secret, if any.
    ///   - excludeOldTransactions: whether to send `exclude-old-transactions: true`.
    ///   - transport: the transport; AsyncHTTPClient's shared client by default.
    public init(
        productionBaseURL: URL = Self.defaultProductionBaseURL,
        sandboxBaseURL: URL = Self.defaultSandboxBaseURL,
        sharedSecret: String? = nil,
        excludeOldTransactions: Bool = false,
        transport: any HTTPTransport = AsyncHTTPClientTransport()
    ) {
        self.productionBaseURL = productionBaseURL
        self.sandboxBaseURL = sandboxBaseURL
        self.sharedSecret = sharedSecret
        self.excludeOldTransactions = excludeOldTransactions
        self.transport = transport
    }

    /// Verifies a receipt, following Apple's redirect between environments once.
    ///
    /// - Parameters:
    ///   - receiptData: the Base64-encoded app receipt.
    ///   - environment: where to send it first: production (Apple's advice) by default;
    ///     ``AppStoreEnvironment/sandbox`` to start at the sandbox.
    /// - Returns: The last response, whatever its `status`: the caller decides what a
    ///   non-zero status means (``VerifyReceiptStatus/isRetryable`` and friends).
    /// - Throws: ``VerifyReceiptClientError`` when a call produced no decodable response.
    public func verify(
        receiptData: String, startingAt environment: AppStoreEnvironment = .production
    ) async throws(VerifyReceiptClientError) -> VerifyReceiptResponse {
        let first = try await verify(receiptData: receiptData, in: environment)
        switch (environment, first.status) {
        case (.production, .sandboxReceiptSentToProduction):
            return try await verify(receiptData: receiptData, in: .sandbox)
        case (.sandbox, .productionReceiptSentToSandbox):
            return try await verify(receiptData: receiptData, in: .production)
        default:
            return first
        }
    }

    /// Verifies a receipt at one environment's endpoint, without redirects.
    ///
    /// - Parameters:
    ///   - receiptData: the Base64-encoded app receipt.
    ///   - environment: ``AppStoreEnvironment/sandbox`` for the sandbox URL; any other
    ///     value for the production URL.
    /// - Returns: The response, whatever its `status`.
    /// - Throws: ``VerifyReceiptClientError``.
    public func verify(
        receiptData: String, in environment: AppStoreEnvironment
    ) async throws(VerifyReceiptClientError) -> VerifyReceiptResponse {
        let target: AppStoreEnvironment = environment == .sandbox ? .sandbox : .production
        guard let url = url(for: target) else {
            throw VerifyReceiptClientError(
                kind: .invalidRequest, environment: target, message: "cannot append /verifyReceipt to the base URL")
        }
        let body = VerifyReceiptRequest(
            receiptData: receiptData, password: sharedSecret,
            excludeOldTransactions: excludeOldTransactions ? true : nil)
        let request: HTTPRequestData
        do {
            request = HTTPRequestData(
                method: .post, url: url,
                headers: ["Content-Type": "application/json", "Accept": "application/json"],
                body: try APIJSON.encode(body))
        } catch {
            throw VerifyReceiptClientError(kind: .invalidRequest, environment: target, message: "\(error)")
        }

        let response: HTTPResponseData
        do {
            response = try await transport.send(request)
        } catch {
            throw VerifyReceiptClientError(kind: .transportFailed, environment: target, message: "\(error)")
        }
        guard response.status == 200 else {
            throw VerifyReceiptClientError(
                kind: .unexpectedStatus, environment: target, httpStatus: response.status,
                message: APIJSON.excerpt(response.body) ?? "empty body")
        }
        do {
            return try APIJSON.decode(VerifyReceiptResponse.self, from: response.body)
        } catch {
            throw VerifyReceiptClientError(
                kind: .undecodableResponse, environment: target, httpStatus: response.status,
                message: "\(error)")
        }
    }

    /// The endpoint of an environment: `<base>/verifyReceipt`.
    ///
    /// - Parameter environment: ``AppStoreEnvironment/sandbox`` for the sandbox; any
    ///   other value for production.
    /// - Returns: The URL, or `nil` when the base URL cannot take the path.
    public func url(for environment: AppStoreEnvironment) -> URL? {
        (environment == .sandbox ? sandboxBaseURL : productionBaseURL).appendingAPIPath([Self.path])
    }
}
