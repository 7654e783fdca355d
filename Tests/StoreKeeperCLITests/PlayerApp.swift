import Foundation

/// One player's game on one emulated device, buying through a `storekeeper serve --dev`
/// process (or a `serve` instance beside a standalone emulator) that may be killed at any
/// moment: it retries every step until the server answers, and, like StoreKit, finds a
/// purchase whose answer it lost among the device's unfinished transactions.
struct PlayerApp: Sendable {
    var player: String
    var token: String
    /// The server the game talks to.
    var port: Int
    var truth: PurchaseGroundTruth
    /// Where the App Store answers, when not on the server's port (a standalone emulator).
    var emulatorPort: Int? = nil
    /// Another server instance on the same database, to which each acknowledged purchase is
    /// reported once more (a second device, a retry through another load balancer target):
    /// it must answer `already_delivered`.
    var duplicatePort: Int? = nil

    private var storePort: Int { emulatorPort ?? port }

    /// Buys `count` products one after another, each reported until the server
    /// acknowledges it and then finished; then reports whatever is left unfinished.
    func buy(_ count: Int, productIds: [String]) async throws {
        for index in 0..<count {
            let productId = productIds[index % productIds.count]
            let (orderId, appAccountToken) = try await createOrder(productId: productId)
            if let transaction = try await pay(productId: productId, appAccountToken: appAccountToken) {
                try await deliver(transaction)
            } else {
                // Charged, and already delivered and finished by the server: settled as the
                // SDK settles it, by the order's state.
                try await settleFulfilled(orderId: orderId)
            }
        }
        for (transaction, _) in try await unfinished() { try await deliver(transaction) }
    }

    private struct Transaction {
        var transactionId: String
        var signedTransaction: String
    }

    /// A new order's id and app account token.
    private func createOrder(productId: String) async throws -> (orderId: String, appAccountToken: String) {
        let body = #"{"productId":"\#(productId)"}"#
        let order = try await answered { try await request("POST", "/v1/orders", token: token, body: body) }
        guard let orderId = order["orderId"] as? String, let appAccountToken = order["appAccountToken"] as? String
        else {
            throw AppError.unexpectedAnswer("order: \(order)")
        }
        await truth.recordOrder(appAccountToken: appAccountToken, player: player)
        return (orderId, appAccountToken)
    }

    /// Waits (up to 60 s) until the server says the order is fulfilled, and records the
    /// transaction that fulfilled it as acknowledged to this player.
    private func settleFulfilled(orderId: String) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while ContinuousClock.now < deadline {
            let order = try await answered {
                try await request("GET", "/v1/players/me/orders/\(orderId)", token: token, body: nil)
            }
            if order["status"] as? String == "fulfilled", let transactionId = order["fulfilledBy"] as? String {
                await truth.recordAcknowledged(transactionId: transactionId, player: player)
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw AppError.unexpectedAnswer("order \(orderId) charged and finished, but never fulfilled")
    }

    /// Pays once: when the answer is lost, the charge (if the emulator made it) is among the
    /// unfinished transactions, or, when the server already delivered it from Apple's
    /// notification and finished it at Apple (`nil`), in the App Store's record of the
    /// account's charges (as StoreKit would have told the app of it); the order is paid
    /// again only when it is certain that no charge is coming: the connection was refused
    /// (no process had the request), or the process that had it has been killed since and
    /// its successor lists no such charge. A request that timed out or lost its connection
    /// in a live process may still be charging: it is waited for (up to 60 s) until it is
    /// listed or that process is killed.
    private func pay(productId: String, appAccountToken: String) async throws -> Transaction? {
        let body = #"{"productId":"\#(productId)","appAccountToken":"\#(appAccountToken)"}"#
        while true {
            let killsBefore = await truth.kills
            do {
                let (status, purchase) = try await LoopbackHTTP.request(
                    port: storePort, "POST", "/emulator/v1/devices/\(player)/purchases", body: body)
                guard status == 200, let transaction = Self.transaction(purchase) else {
                    throw AppError.unexpectedAnswer("purchase, HTTP \(status): \(purchase)")
                }
                return transaction
            } catch let error as AppError {
                throw error
            } catch {
                await truth.recordUnanswered()
                let nsError = error as NSError
                let refused = nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCannotConnectToHost
                let deadline = ContinuousClock.now.advanced(by: .seconds(60))
                while true {
                    // Read before listing: a kill seen here is complete, so the list below
                    // comes from the process started after it. Kills count only when the
                    // killed process is the store (not beside a standalone emulator).
                    let killsNow = await truth.kills
                    let killedSince = emulatorPort == nil && killsNow != killsBefore
                    let charged = try await unfinished().first { transaction in
                        transaction.appAccountToken == appAccountToken
                    }
                    if let charged { return charged.transaction }
                    if try await chargedAndFinished(appAccountToken: appAccountToken) { return nil }
                    if refused || killedSince || ContinuousClock.now >= deadline { break }
                    try await Task.sleep(for: .milliseconds(250))
                }
            }
        }
    }

    /// Reports until the server acknowledges the delivery, then finishes the transaction.
    private func deliver(_ transaction: Transaction) async throws {
        let body = #"{"signedTransaction":"\#(transaction.signedTransaction)"}"#
        while true {
            let reply = try await answered { try await request("POST", "/v1/purchases", token: token, body: body) }
            let status = reply["status"] as? String
            if status == "delivered" || status == "already_delivered" { break }
            guard status == "pending" else { throw AppError.unexpectedAnswer("report: \(reply)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        await truth.recordAcknowledged(transactionId: transaction.transactionId, player: player)
        if let duplicatePort {
            let again = try await answered {
                try await LoopbackHTTP.request(port: duplicatePort, "POST", "/v1/purchases", token: token, body: body)
            }
            await truth.recordDuplicate(transactionId: transaction.transactionId, status: again["status"] as? String)
        }
        _ = try await answered {
            try await LoopbackHTTP.request(
                port: storePort, "POST",
                "/emulator/v1/devices/\(player)/transactions/\(transaction.transactionId)/finish")
        }
    }

    /// Whether the App Store charged this order and its transaction is finished (the server
    /// delivered it from the notification and finished it at Apple): the emulator's ledger
    /// of every charge stands in for StoreKit's record of the account's purchases.
    private func chargedAndFinished(appAccountToken: String) async throws -> Bool {
        while true {
            do {
                let (status, charges) = try await LoopbackHTTP.requestList(
                    port: storePort, "GET", "/emulator/v1/ledger")
                if status == 200 {
                    let charged = charges.filter { $0["appAccountToken"] as? String == appAccountToken }
                    guard !charged.isEmpty else { return false }
                    let unfinished = try await unfinished().map(\.transaction.transactionId)
                    return charged.allSatisfy { charge in
                        !unfinished.contains { $0 == charge["transactionId"] as? String }
                    }
                }
            } catch {
                await truth.recordUnanswered()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The device's unfinished transactions, with the token each was bought with.
    private func unfinished() async throws -> [(transaction: Transaction, appAccountToken: String?)] {
        while true {
            do {
                let (status, list) = try await LoopbackHTTP.requestList(
                    port: storePort, "GET", "/emulator/v1/devices/\(player)/transactions/unfinished")
                if status == 200 {
                    return list.compactMap { entry in
                        Self.transaction(entry).map { ($0, entry["appAccountToken"] as? String) }
                    }
                }
            } catch {
                await truth.recordUnanswered()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Repeats `send` until the server answers with a 2xx status (it is down or
    /// restarting meanwhile); the answer.
    private func answered(
        _ send: () async throws -> (Int, [String: Any])
    ) async throws -> [String: Any] {
        for _ in 0..<1_200 {
            do {
                let (status, answer) = try await send()
                if (200..<300).contains(status) { return answer }
                if status < 500 { throw AppError.unexpectedAnswer("HTTP \(status): \(answer)") }
            } catch let error as AppError {
                throw error
            } catch {
                await truth.recordUnanswered()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw AppError.serverGone
    }

    private func request(
        _ method: String, _ path: String, token: String? = nil, body: String? = nil
    ) async throws -> (Int, [String: Any]) {
        try await LoopbackHTTP.request(port: port, method, path, token: token, body: body)
    }

    private static func transaction(_ object: [String: Any]) -> Transaction? {
        guard let id = object["transactionId"] as? String, let jws = object["signedTransaction"] as? String else {
            return nil
        }
        return Transaction(transactionId: id, signedTransaction: jws)
    }
}

/// Why a player's app gave up.
enum AppError: Error {
    /// The server answered something a correct server never answers here.
    case unexpectedAnswer(String)
    /// The server did not answer for a minute.
    case serverGone
}
