import AppStoreEmulator
import Foundation
import Ledger
import LedgerTestSupport
import PlayModel
import Testing

/// The server torn down and rebuilt on the same database in the middle of a run: nothing
/// acknowledged is lost, nothing is delivered twice.
@Suite("Server restarts")
struct RestartTests {
    @Test("purchases, reports and notifications across two restarts all deliver once", arguments: StoreKind.allCases)
    func restartMidRun(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let players = ["alice", "bob", "carol"]
        let purchasesPerPlayer = 6
        let progress = Progress()

        let transactions = try await withThrowingTaskGroup(of: [String].self) { group in
            for player in players {
                group.addTask {
                    var bought: [String] = []
                    for index in 0..<purchasesPerPlayer {
                        // The device keeps retrying, as the SDK does, while the server is down.
                        try await Task.sleep(for: .milliseconds(150))
                        let order = try await Self.retrying { try await fixture.order(player) }
                        let paid = try await fixture.pay(token: order.appAccountToken, device: "\(player)-phone")
                        let jws = try #require(paid.signedTransaction)
                        bought.append(try #require(paid.transactionId))
                        if index % 2 == 0 {  // every other purchase is left to the notification path
                            let reply = try await Self.retrying {
                                let answer = try await fixture.report(player, signedTransaction: jws)
                                guard answer.status == 200 else { throw FixtureError("\(answer)") }
                                return try answer.decode(PurchaseReply.self)
                            }
                            #expect(["delivered", "already_delivered"].contains(reply.status))
                        }
                        await progress.purchased()
                    }
                    return bought
                }
            }
            group.addTask {
                for _ in 0..<2 {
                    try await Task.sleep(for: .milliseconds(300))
                    await progress.restarting()
                    try await fixture.restart(downtime: .milliseconds(500))
                }
                return []
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }

        // Notifications the emulator gave up on while the server was down are in its history.
        await fixture.emulator.waitForNotificationDeliveries()
        _ = try await #require(await fixture.server.reconciler).run()
        #expect(transactions.count == players.count * purchasesPerPlayer)
        let total = players.count * purchasesPerPlayer
        #expect(await progress.doneAtRestarts.allSatisfy { $0 < total }, "the restarts were not mid-run")
        for player in players {
            #expect(try await fixture.wallet(player) == ["coins": Int64(100 * purchasesPerPlayer)])
        }
        for transactionId in transactions {
            #expect(try await fixture.store.purchase(store: .appStore, transactionId: transactionId) != nil)
        }
        let entries = try await players.asyncFlatMap { try await fixture.store.ledgerEntries(playerId: $0) }
        #expect(entries.count == transactions.count)
        #expect(Set(entries.compactMap(\.transactionId)).count == transactions.count)
    }

    @Test("a call the server makes to Google while it shuts down is answered: the stores stay up while it restarts")
    func storeCallDuringRestart() async throws {
        let lookup = CallGate()
        let fixture = try await ServerFixture(
            .sqlite, notifications: false, playKeys: true, subscriptionTimeScale: 1,
            interceptor: { request in
                // Google's purchase lookup (not the consume after it) waits for the test.
                let path = request.url.path
                if path.contains("/purchases/products/"), !path.hasSuffix(":consume") { await lookup.arriveAndWait() }
                return nil
            })
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken)
        let report = Task { try await fixture.reportPlay("alice", bought, orderId: order.orderId) }
        await lookup.waitForArrival()

        // The server shuts down while its report handler is about to call Google; the call
        // goes out once the server's port refuses connections, that is mid-shutdown.
        let port = try #require(await fixture.stack.baseURL.port)
        let restart = Task { try await fixture.restart() }
        try await fixture.eventually("the server's port to close") {
            (try? await RawConnection.open(port: port)) == nil
        }
        await lookup.open()

        let answer = try await report.value
        #expect(try answer.decode(PurchaseReply.self).status == "delivered", "\(answer)")
        try await restart.value
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.consumed)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    /// Retries `body` for up to 60 s, as a client does while the server restarts (a loaded
    /// machine may take long to bring it back).
    private static func retrying<T>(_ body: () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            do {
                return try await body()
            } catch {
                if ContinuousClock.now > deadline { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}

/// Holds a call until the test opens it, and tells the test when the call arrived.
private actor CallGate {
    private var arrived = false
    private var isOpen = false
    private var arrivalWaiters: [CheckedContinuation<Void, Never>] = []
    private var held: [CheckedContinuation<Void, Never>] = []

    func arriveAndWait() async {
        arrived = true
        for waiter in arrivalWaiters { waiter.resume() }
        arrivalWaiters = []
        guard !isOpen else { return }
        await withCheckedContinuation { held.append($0) }
    }

    func waitForArrival() async {
        guard !arrived else { return }
        await withCheckedContinuation { arrivalWaiters.append($0) }
    }

    func open() {
        isOpen = true
        for call in held { call.resume() }
        held = []
    }
}

/// How many purchases were complete when each restart began.
private actor Progress {
    private var done = 0
    private(set) var doneAtRestarts: [Int] = []

    func purchased() { done += 1 }
    func restarting() { doneAtRestarts.append(done) }
}

extension Array {
    fileprivate func asyncFlatMap<T>(_ transform: (Element) async throws -> [T]) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result += try await transform(element) }
        return result
    }
}
