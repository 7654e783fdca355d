import Foundation

/// One purchase made ready before the timed phase of `loadtest --prepared`: ordered on
/// the server and charged on the emulator, not yet reported.
struct PreparedPurchase: Sendable {
    /// The bearer token of the player who ordered it.
    var token: String
    var orderId: String
    /// The emulator's JWS for the transaction, bound to the order by its `appAccountToken`.
    var signedTransaction: String
}

/// Prepares purchases for `loadtest --prepared`, untimed: for each of its players' turns,
/// `POST /v1/orders`, charge the worker's emulated device with the order's
/// `appAccountToken`, then finish the transaction on the device (so its receipt stays
/// small). Nothing is reported to the server.
struct LoadTestPreparer: Sendable {
    let client: LoadTestClient
    let deviceId: String
    let productId: String
    /// One player token per purchase to prepare, in order.
    let tokens: [String]

    /// Prepares one purchase per token; a failed purchase is counted in the tally's
    /// errors and left out.
    func run() async -> (purchases: [PreparedPurchase], tally: LoadTestTally) {
        var purchases: [PreparedPurchase] = []
        purchases.reserveCapacity(tokens.count)
        var tally = LoadTestTally()
        for token in tokens {
            guard !Task.isCancelled else { break }
            do {
                purchases.append(try await prepare(token: token))
            } catch {
                tally.fail("prepare \(error.kind)")
            }
        }
        return (purchases, tally)
    }

    private func prepare(token: String) async throws(LoadTestClient.Failure) -> PreparedPurchase {
        let order = try await client.post(
            "/v1/orders", LoadTestWorker.OrderRequest(productId: productId), bearer: token, step: "order",
            as: LoadTestWorker.OrderAnswer.self)
        let charge = try await client.post(
            "/emulator/v1/devices/\(deviceId)/purchases",
            LoadTestWorker.ChargeRequest(productId: productId, appAccountToken: order.appAccountToken),
            step: "charge", as: LoadTestWorker.ChargeAnswer.self)
        guard charge.outcome == "purchased", let transactionId = charge.transactionId,
            let signedTransaction = charge.signedTransaction
        else { throw LoadTestClient.Failure(kind: "charge: outcome \(charge.outcome)") }
        _ = try await client.post(
            "/emulator/v1/devices/\(deviceId)/transactions/\(transactionId)/finish", LoadTestWorker.Empty(),
            step: "finish", as: LoadTestWorker.Finished.self)
        return PreparedPurchase(token: token, orderId: order.orderId, signedTransaction: signedTransaction)
    }
}

/// Silences the emulator's notifications while `loadtest --prepared` runs, so that
/// nothing delivers a prepared purchase before the timed phase reports it.
enum LoadTestNotificationSwitch {
    static let path = "/emulator/v1/faults"

    /// Sets the notification drop rate to 1 and fails every `getNotificationHistory` call
    /// (the server's reconciler would otherwise find the dropped notifications there and
    /// deliver them; a failed pass keeps its checkpoint and is read again later), keeping
    /// every other fault. Returns the previous faults (the emulator's JSON) for
    /// ``restore(_:using:)``.
    static func silence(using client: LoadTestClient) async throws(LoadTestClient.Failure) -> Data {
        let (_, previous) = try await client.send(.get, path, step: "faults")
        guard var faults = (try? JSONSerialization.jsonObject(with: previous)) as? [String: Any] else {
            throw LoadTestClient.Failure(kind: "faults: undecodable answer")
        }
        var notifications = faults["notifications"] as? [String: Any] ?? [:]
        notifications["dropRate"] = 1
        faults["notifications"] = notifications
        var endpoints = faults["endpoints"] as? [String: Any] ?? [:]
        endpoints["getNotificationHistory"] = ["errorRate": 1]
        faults["endpoints"] = endpoints
        guard let body = try? JSONSerialization.data(withJSONObject: faults) else {
            throw LoadTestClient.Failure(kind: "faults: unencodable body")
        }
        _ = try await client.send(.put, path, body: body, step: "faults")
        return previous
    }

    /// Puts back the faults ``silence(using:)`` returned.
    static func restore(_ previous: Data, using client: LoadTestClient) async throws(LoadTestClient.Failure) {
        _ = try await client.send(.put, path, body: previous, step: "faults")
    }
}
