/// One load-test worker: buys the product again and again, as one player on one
/// device, until the deadline, and tallies what happened.
///
/// One purchase is: create an order (`POST /v1/orders`), charge the emulated device with
/// the order's `appAccountToken`, report the signed transaction (`POST /v1/purchases`),
/// then finish the transaction on the device as a StoreKit app does after delivery (so
/// the device's receipt does not grow with every consumable bought).
struct LoadTestWorker: Sendable {
    let client: LoadTestClient
    /// The player's bearer token.
    let token: String
    let deviceId: String
    let productId: String
    /// No new purchase starts after this.
    let deadline: ContinuousClock.Instant

    /// Runs purchases until the deadline.
    func run() async -> LoadTestTally {
        var tally = LoadTestTally()
        let clock = ContinuousClock()
        while clock.now < deadline, !Task.isCancelled {
            do {
                try await purchase(into: &tally, clock: clock)
            } catch {
                tally.fail(error.kind)
                // A refused connection fails at once: do not spin on it.
                if error.kind.contains("transport") { try? await Task.sleep(for: .milliseconds(10)) }
            }
        }
        return tally
    }

    /// One purchase, start to finish; a step's failure ends it.
    private func purchase(into tally: inout LoadTestTally, clock: ContinuousClock) async throws(LoadTestClient.Failure)
    {
        let start = clock.now
        let order = try await client.post(
            "/v1/orders", OrderRequest(productId: productId), bearer: token, step: "order", as: OrderAnswer.self)
        let ordered = clock.now
        tally.record(.order, ordered - start)

        let charge = try await client.post(
            "/emulator/v1/devices/\(deviceId)/purchases",
            ChargeRequest(productId: productId, appAccountToken: order.appAccountToken),
            step: "charge", as: ChargeAnswer.self)
        guard charge.outcome == "purchased", let transactionId = charge.transactionId,
            let signedTransaction = charge.signedTransaction
        else { throw LoadTestClient.Failure(kind: "charge: outcome \(charge.outcome)") }
        let charged = clock.now
        tally.record(.charge, charged - ordered)

        let report = try await client.post(
            "/v1/purchases", ReportRequest(signedTransaction: signedTransaction, orderId: order.orderId),
            bearer: token, step: "report", as: ReportAnswer.self)
        let reported = clock.now
        switch report.status {
        case "delivered": tally.delivered += 1
        case "already_delivered": tally.alreadyDelivered += 1
        default:
            throw LoadTestClient.Failure(kind: "report: \(report.status)" + (report.reason.map { " \($0)" } ?? ""))
        }
        tally.record(.report, reported - charged)
        tally.record(.path, reported - start)

        _ = try await client.post(
            "/emulator/v1/devices/\(deviceId)/transactions/\(transactionId)/finish", Empty(), step: "finish",
            as: Finished.self)
        tally.record(.finish, clock.now - reported)
    }
}

extension LoadTestWorker {
    /// `POST /v1/orders`.
    struct OrderRequest: Encodable {
        var productId: String
    }

    /// The fields of an order the worker needs.
    struct OrderAnswer: Decodable {
        var orderId: String
        var appAccountToken: String
    }

    /// `POST /emulator/v1/devices/{deviceId}/purchases`.
    struct ChargeRequest: Encodable {
        var productId: String
        var appAccountToken: String
        /// The load test reports the signed transaction: no app receipt is signed for it.
        var includeAppReceipt = false
    }

    /// The emulator's answer to a purchase: `purchased` with the signed transaction.
    struct ChargeAnswer: Decodable {
        var outcome: String
        var transactionId: String?
        var signedTransaction: String?
    }

    /// `POST /v1/purchases`.
    struct ReportRequest: Encodable {
        var signedTransaction: String
        var orderId: String
    }

    /// The server's answer to a report.
    struct ReportAnswer: Decodable {
        var status: String
        var reason: String?
    }

    /// An empty JSON object.
    struct Empty: Encodable {}

    /// The emulator's answer to finishing a transaction.
    struct Finished: Decodable {
        var finished: Bool
    }
}
