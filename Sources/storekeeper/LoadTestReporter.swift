/// A timed worker of `loadtest --prepared`: reports its share of the prepared purchases
/// (`POST /v1/purchases`), one after the other, once each, and tallies the answers.
///
/// Only `delivered` counts as a delivery: with the emulator's notifications off, nothing
/// else can deliver a prepared purchase, so `already_delivered` means a race (counted
/// apart) and any other answer is an error.
struct LoadTestReporter: Sendable {
    let client: LoadTestClient
    let purchases: [PreparedPurchase]

    /// Reports every purchase once.
    func run() async -> LoadTestTally {
        var tally = LoadTestTally()
        let clock = ContinuousClock()
        for purchase in purchases {
            guard !Task.isCancelled else { break }
            let start = clock.now
            do {
                let answer = try await client.post(
                    "/v1/purchases",
                    LoadTestWorker.ReportRequest(
                        signedTransaction: purchase.signedTransaction, orderId: purchase.orderId),
                    bearer: purchase.token, step: "report", as: LoadTestWorker.ReportAnswer.self)
                switch answer.status {
                case "delivered":
                    tally.delivered += 1
                    tally.record(.report, clock.now - start)
                case "already_delivered":
                    tally.alreadyDelivered += 1
                default:
                    tally.fail("report: \(answer.status)" + (answer.reason.map { " \($0)" } ?? ""))
                }
            } catch {
                tally.fail(error.kind)
            }
        }
        return tally
    }
}

/// A worker of `loadtest --orders-only`: creates orders (`POST /v1/orders`) until the
/// deadline, timing each; the server's smallest write (one transaction, two inserts).
struct LoadTestOrderWorker: Sendable {
    let client: LoadTestClient
    let token: String
    let productId: String
    /// No new order starts after this.
    let deadline: ContinuousClock.Instant

    /// Creates orders until the deadline.
    func run() async -> LoadTestTally {
        var tally = LoadTestTally()
        let clock = ContinuousClock()
        while clock.now < deadline, !Task.isCancelled {
            let start = clock.now
            do {
                _ = try await client.post(
                    "/v1/orders", LoadTestWorker.OrderRequest(productId: productId), bearer: token, step: "order",
                    as: LoadTestWorker.OrderAnswer.self)
                tally.record(.order, clock.now - start)
            } catch {
                tally.fail(error.kind)
                if error.kind.contains("transport") { try? await Task.sleep(for: .milliseconds(10)) }
            }
        }
        return tally
    }
}
