import AppStoreEmulator
import Foundation
import Ledger
import PurchaseSDK
import Testing

/// The server down, answering 5xx, too slow, or its answer lost: the pipeline retries
/// with backoff until the delivery is acknowledged, and the goods arrive once.
@Suite(.timeLimit(.minutes(3))) struct ServerFailureTests {
    /// Checks that `player` got one coins100 delivery, finished with the store.
    private func expectDeliveredOnce(_ outcome: PurchaseOutcome, to player: String, in fixture: SDKFixture)
        async throws
    {
        guard case .delivered(let record) = outcome else {
            Issue.record("expected a delivery, got \(outcome)")
            return
        }
        #expect(try await fixture.purchases(player).map(\.transactionId) == [record.transactionId])
        #expect(try await fixture.wallet(player) == ["coins": 100])
        #expect(await fixture.charges().map(\.finished) == [true])
    }

    @Test func aServerDownForAWhileDeliversWhenItIsBack() async throws {
        try await withFixture { fixture in
            let stack = fixture.stack
            let outage = Outage()
            // The server goes down before the first report and comes back only once the
            // pipeline waits to retry: the first report is sent while it is down, however
            // slow the machine.
            let (pipeline, _) = await fixture.pipeline(player: "dora", clock: OutageClock(outage: outage)) {
                boundary, _ in
                guard boundary == .beforeServerCall, await outage.begin() else { return }
                Task {
                    try await stack.restart {
                        await outage.down()
                        await outage.untilRetried()
                    }
                }
                await outage.untilDown()
            }
            try await pipeline.start()
            let outcome = try await pipeline.purchase(productId: "coins100")
            try await expectDeliveredOnce(outcome, to: "dora", in: fixture)
            #expect(outcome.record.attempts >= 1, "the report was retried during the outage")
            await pipeline.stop()
        }
    }

    @Test func fiveHundredsAreRetried() async throws {
        try await withFixture { fixture in
            await fixture.faults.add(.status(503), times: 3, path: "/v1/purchases")
            await fixture.faults.add(.status(500), times: 1, path: "/v1/orders")
            let clock = RecordingClock()
            let (pipeline, _) = await fixture.pipeline(player: "eve", clock: clock)
            try await pipeline.start()
            let outcome = try await pipeline.purchase(productId: "coins100")
            try await expectDeliveredOnce(outcome, to: "eve", in: fixture)
            #expect(outcome.record.attempts == 3)
            #expect(await fixture.faults.injected == 4)
            let waits: [Duration] = [.milliseconds(20), .milliseconds(20), .milliseconds(40), .milliseconds(80)]
            #expect(await clock.waits == waits, "one wait for the order, three growing ones for the report")
            await pipeline.stop()
        }
    }

    @Test func timeoutsAndLostAnswersAreRetriedWithoutDoubleDelivery() async throws {
        try await withFixture { fixture in
            await fixture.faults.add(.stall, times: 1, path: "/v1/purchases")
            await fixture.faults.add(.loseAnswer, times: 2, path: "/v1/purchases")
            // The stall lasts 10 s: a 4 s timeout meets it, and a loaded machine's slow
            // answers do not.
            let (pipeline, _) = await fixture.pipeline(player: "finn", timeout: 4)
            try await pipeline.start()
            let outcome = try await pipeline.purchase(productId: "coins100")
            try await expectDeliveredOnce(outcome, to: "finn", in: fixture)
            #expect(await fixture.faults.injected == 3, "the stall and both lost answers were met")
            // At least one attempt per fault; a very loaded machine may time out one more
            // request, which is retried like the others.
            #expect(outcome.record.attempts >= 3)
            #expect(outcome.record.delivery?.status == "already_delivered", "a lost answer had delivered")
            await pipeline.stop()
        }
    }

    @Test func aPermanentRefusalIsRecordedAndFinished() async throws {
        try await withFixture { fixture in
            // Gina's order, paid on Hank's phone (a shared device): Hank may not have it.
            let token = UUID().uuidString.lowercased()
            _ = try await fixture.stack.store.createOrder(
                Order(
                    orderId: UUID().uuidString.lowercased(), playerId: "gina", productId: "coins100",
                    appAccountToken: token, createdAt: Date(), expiresAt: Date().addingTimeInterval(3_600)))
            _ = try await fixture.stack.emulator.purchase(
                deviceId: "phone", PurchaseRequest(productId: "coins100", appAccountToken: token))

            let (pipeline, _) = await fixture.pipeline(player: "hank")
            try await pipeline.start()
            await pipeline.waitUntilIdle()
            let records = await pipeline.allRecords()
            #expect(records.map(\.state) == [.failed(reason: "transaction_belongs_to_other_player")])
            #expect(records.map(\.origin) == [.store])
            #expect(records.map(\.transactionFinished) == [true])
            #expect(await fixture.charges().map(\.finished) == [true])
            #expect(try await fixture.wallet("hank").isEmpty)
            #expect(try await fixture.purchases("hank").isEmpty)
            await pipeline.stop()
        }
    }
}

/// Takes the server down once, on the first report, until the pipeline waits to retry.
private actor Outage {
    private var begun = false
    private var retried = false
    private var isDown = false
    private var waitingForDown: [CheckedContinuation<Void, Never>] = []
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// True the first time only.
    func begin() -> Bool {
        defer { begun = true }
        return !begun
    }

    /// Called by the restart once the server is torn down.
    func down() {
        isDown = true
        for continuation in waitingForDown { continuation.resume() }
        waitingForDown = []
    }

    /// Returns once the server is torn down: the report that follows meets no server.
    func untilDown() async {
        if isDown { return }
        await withCheckedContinuation { waitingForDown.append($0) }
    }

    /// Called when the pipeline waits before a retry: once the outage began, it may end.
    func retrying() {
        guard begun else { return }
        retried = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }

    /// Returns once the pipeline has waited to retry.
    func untilRetried() async {
        if retried { return }
        await withCheckedContinuation { waiting.append($0) }
    }
}

/// The real clock, telling the outage when the pipeline waits to retry (after the outage
/// began).
private struct OutageClock: PipelineClock {
    let outage: Outage

    var now: Date { Date() }

    func sleep(for duration: Duration) async throws {
        await outage.retrying()
        try await Task.sleep(for: duration)
    }
}

/// The real clock, remembering every wait the pipeline asked for.
private actor RecordingClock: PipelineClock {
    private(set) var waits: [Duration] = []

    nonisolated var now: Date { Date() }

    func sleep(for duration: Duration) async throws {
        waits.append(duration)
        try await Task.sleep(for: duration)
    }
}
