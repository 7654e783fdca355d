import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The emulator's device API for one device, over HTTP: what StoreKit for Linux does
/// behind Apple's API. Its calls block the calling thread (StoreKit Test's methods are
/// synchronous, as Apple declares them); asynchronous API runs them through
/// ``EmulatorClient/run(_:)`` on a Dispatch thread, never on the cooperative pool.
package struct EmulatorClient: Sendable {
    package let configuration: StoreKitConfiguration

    package init(configuration: StoreKitConfiguration) {
        self.configuration = configuration
    }

    /// A client for the configuration the environment gives now.
    package static func current() throws(StoreKitConfigurationError) -> EmulatorClient {
        EmulatorClient(configuration: try StoreKitConfiguration.current())
    }

    private var devicePath: String { "emulator/v1/devices/\(configuration.deviceId)" }

    // MARK: Catalog and trust

    package func products() throws -> [EmulatorWire.Product] {
        try get("emulator/v1/products")
    }

    package func addProducts(_ products: [EmulatorWire.Product]) throws -> [EmulatorWire.Product] {
        try send("PUT", "emulator/v1/products", body: products)
    }

    /// The emulator's JWS root, DER.
    package func jwsRoot() throws -> Data {
        let roots: [String: String] = try get("emulator/v1/roots")
        guard let text = roots["jws"], let der = Data(base64Encoded: text) else {
            throw EmulatorRequestError(status: 200, code: "invalid_roots", message: "no jws root in the answer")
        }
        return der
    }

    // MARK: Device

    package func device() throws -> EmulatorWire.Device {
        try get(devicePath)
    }

    @discardableResult
    package func updateDevice(_ settings: EmulatorWire.Device) throws -> EmulatorWire.Device {
        try send("PUT", devicePath, body: settings)
    }

    package func purchase(productId: String, appAccountToken: UUID?, quantity: Int) throws
        -> EmulatorWire.PurchaseResult
    {
        try send(
            "POST", "\(devicePath)/purchases",
            body: EmulatorWire.PurchaseRequest(
                productId: productId, appAccountToken: appAccountToken?.uuidString.lowercased(),
                quantity: quantity, includeAppReceipt: false))
    }

    package func pendingPurchases() throws -> [EmulatorWire.PendingPurchase] {
        try get("\(devicePath)/purchases/pending")
    }

    package func approve(pendingId: String) throws -> EmulatorWire.PurchaseResult {
        try send("POST", "\(devicePath)/purchases/\(pendingId)/approve", body: [String: String]())
    }

    package func decline(pendingId: String) throws {
        let _: [String: String] = try send(
            "POST", "\(devicePath)/purchases/\(pendingId)/decline", body: [String: String]())
    }

    package func unfinishedTransactions() throws -> [EmulatorWire.DeviceTransaction] {
        try get("\(devicePath)/transactions/unfinished")
    }

    package func allTransactions() throws -> [EmulatorWire.DeviceTransaction] {
        try get("\(devicePath)/transactions")
    }

    package func restore() throws -> [EmulatorWire.DeviceTransaction] {
        try send("POST", "\(devicePath)/restore", body: [String: String]())
    }

    package func finish(transactionId: String) throws {
        let _: [String: Bool] = try send(
            "POST", "\(devicePath)/transactions/\(transactionId)/finish", body: [String: String]())
    }

    /// The device's app receipt now, DER.
    package func receipt() throws -> Data {
        let answer: [String: String] = try get("\(devicePath)/receipt")
        guard let text = answer["appReceipt"], let der = Data(base64Encoded: text) else {
            throw EmulatorRequestError(status: 200, code: "invalid_receipt", message: "no appReceipt in the answer")
        }
        return der
    }

    /// The signed app transaction; `nil` before the account's first purchase.
    package func appTransaction() throws -> String? {
        do {
            let answer: [String: String] = try get("\(devicePath)/app-transaction")
            return answer["signedAppTransaction"]
        } catch let error as EmulatorRequestError where error.code == "no_app_transaction" {
            return nil
        }
    }

    package func subscriptionStatuses() throws -> EmulatorWire.StatusResponse {
        try get("\(devicePath)/subscription-statuses")
    }

    /// The promoted purchases waiting for the device's app, oldest first.
    package func promotions() throws -> [EmulatorWire.Promotion] {
        try get("\(devicePath)/promotions")
    }

    /// Takes a waiting promotion: the emulator lists it no more. `false` when another
    /// reader took it first.
    package func takePromotion(_ promotionId: String) throws -> Bool {
        do {
            let _: [String: Bool] = try perform(request("DELETE", "\(devicePath)/promotions/\(promotionId)", body: nil))
            return true
        } catch let error as EmulatorRequestError where error.code == "unknown_promotion" {
            return false
        }
    }

    /// Takes every waiting promotion, with its product: what `PurchaseIntent.intents` and
    /// the payment queue deliver. A promotion of a product the catalog no longer sells is
    /// taken and dropped.
    package func takePromotions() throws -> [EmulatorWire.Product] {
        let waiting = try promotions()
        guard !waiting.isEmpty else { return [] }
        let catalog = Dictionary(try products().map { ($0.productId, $0) }, uniquingKeysWith: { first, _ in first })
        return try waiting.compactMap { promotion in
            try takePromotion(promotion.promotionId) ? catalog[promotion.productId] : nil
        }
    }

    // MARK: Apple-side actions (StoreKit Test)

    package func refund(transactionId: String) throws {
        let _: [String: AnyCodableValue] = try send(
            "POST", "emulator/v1/transactions/\(transactionId)/refund", body: [String: String]())
    }

    package func renew(originalTransactionId: String) throws {
        let _: [String: AnyCodableValue] = try send(
            "POST", "emulator/v1/subscriptions/\(originalTransactionId)/renew", body: [String: String]())
    }

    package func setAutoRenew(originalTransactionId: String, enabled: Bool) throws {
        let _: [String: AnyCodableValue] = try send(
            "POST", "\(devicePath)/subscriptions/\(originalTransactionId)/auto-renew", body: ["enabled": enabled])
    }

    package func expire(originalTransactionId: String) throws {
        let _: [String: AnyCodableValue] = try send(
            "POST", "emulator/v1/subscriptions/\(originalTransactionId)/expire", body: [String: String]())
    }

    // MARK: HTTP

    private func get<Answer: Decodable>(_ path: String) throws -> Answer {
        try perform(request("GET", path, body: nil))
    }

    private func send<Answer: Decodable>(_ method: String, _ path: String, body: some Encodable) throws
        -> Answer
    {
        try perform(request(method, path, body: try JSONEncoder().encode(body)))
    }

    private func request(_ method: String, _ path: String, body: Data?) -> URLRequest {
        var request = URLRequest(url: configuration.emulatorURL.appendingPathComponent(path))
        request.httpMethod = method
        request.timeoutInterval = 30
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    private func perform<Answer: Decodable>(_ request: URLRequest) throws -> Answer {
        let (data, status) = try BlockingHTTP.exchange(request)
        guard (200..<300).contains(status) else {
            let body = try? JSONDecoder().decode(EmulatorWire.ErrorBody.self, from: data)
            throw EmulatorRequestError(
                status: status, code: body?.error ?? "http_\(status)", message: body?.message ?? "")
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw EmulatorRequestError(status: status, code: "unreadable_answer", message: "\(error)")
        }
    }
}

/// Any JSON value, for answers StoreKit reads nothing from.
package enum AnyCodableValue: Codable, Sendable {
    case value

    package init(from decoder: any Decoder) throws { self = .value }
    package func encode(to encoder: any Encoder) throws {}
}
