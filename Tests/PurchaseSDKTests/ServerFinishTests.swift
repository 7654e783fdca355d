import AppStoreEmulator
import Foundation
import PurchaseSDK
import PurchaseSDKEmulator
import Testing

/// The purchase server finishes at Apple what it delivered from Apple's notification while
/// the app was gone: the store then no longer lists the transaction, and the pipeline ends
/// the order finished, with the reason, instead of taking it for unpaid.
@Suite(.timeLimit(.minutes(3))) struct ServerFinishTests {
    @Test func aChargeTheServerFinishedWhileTheAppWasDeadEndsFinishedByTheServer() async throws {
        try await withFixture(notifications: true) { fixture in
            let (doomed, _) = await fixture.pipeline(player: "fay", device: "fay-phone", crashAt: .afterStorePurchase)
            try await doomed.start()
            await #expect(throws: SimulatedCrash(at: .afterStorePurchase)) {
                try await doomed.purchase(productId: "coins100")
            }
            try await fixture.eventually("the server's finish at Apple") {
                await fixture.charges(device: "fay-phone").first?.finished == true
            }
            let charge = try #require(await fixture.charges(device: "fay-phone").first)

            let (revived, store) = await fixture.pipeline(player: "fay", device: "fay-phone")
            #expect(try await store.unfinishedTransactions().isEmpty)
            try await revived.start()
            var outcomes = revived.outcomes.makeAsyncIterator()
            guard case .delivered(let record) = await outcomes.next() else {
                Issue.record("the server's delivery was not announced")
                return
            }
            #expect(record.state == .finished && record.transactionFinished)
            #expect(record.finishReason == .finishedByServer)
            #expect(record.transactionId == charge.transactionId)
            let journaled = try await FilePurchaseJournal(url: fixture.journalURL(device: "fay-phone")).load().records
            #expect(journaled.map(\.finishReason) == [.finishedByServer])
            #expect(try await fixture.wallet("fay") == ["coins": 100])
            #expect(try await fixture.purchases("fay").map(\.transactionId) == [charge.transactionId])
            await revived.stop()
        }
    }

    @Test func anAskToBuyApprovalTheServerFinishedEndsFinishedByTheServerAtTheNextStart() async throws {
        try await withFixture(notifications: true) { fixture in
            try await fixture.stack.emulator.updateDevice("gus-phone", settings: DeviceSettings(askToBuy: true))
            let (first, _) = await fixture.pipeline(player: "gus", device: "gus-phone")
            try await first.start()
            let asked = try await first.purchase(productId: "potion")
            guard case .pending = asked else {
                Issue.record("expected pending, got \(asked)")
                return
            }
            await first.stop()

            let pending = try #require(await fixture.stack.emulator.pendingPurchases(deviceId: "gus-phone").first)
            _ = try await fixture.stack.emulator.approvePendingPurchase(pending.pendingId)
            try await fixture.eventually("the server's finish at Apple") {
                await fixture.charges(device: "gus-phone").first?.finished == true
            }

            let (second, _) = await fixture.pipeline(player: "gus", device: "gus-phone")
            try await second.start()
            #expect(await second.pendingDeliveries().isEmpty)
            let record = try #require(await second.allRecords().first { $0.id == asked.record.id })
            #expect(record.state == .finished && record.finishReason == .finishedByServer)
            let charged = await fixture.charges(device: "gus-phone").first?.transactionId
            #expect(record.transactionId == charged)
            #expect(try await fixture.wallet("gus") == ["potion": 1])
            await second.stop()
        }
    }

    @Test func aChargeWhoseAnswerWasLostAndTheServerFinishedEndsFinishedByTheServerAtTheNextStart() async throws {
        try await withFixture(notifications: true) { fixture in
            await fixture.faults.add(.loseAnswer, times: 1, path: "/devices/kim-phone/purchases")
            // The phone does not see the charge before the server finishes it.
            await fixture.faults.add(.status(503), times: 10_000, path: "/devices/kim-phone/transactions/unfinished")
            let (first, _) = await fixture.pipeline(player: "kim", device: "kim-phone")
            try await first.start()
            let answer = try await first.purchase(productId: "coins100")
            #expect(answer.record.state == .failed(reason: "store_unavailable"))
            await first.stop()
            try await fixture.eventually("the server's finish at Apple") {
                await fixture.charges(device: "kim-phone").first?.finished == true
            }

            let (second, _) = await fixture.pipeline(player: "kim", device: "kim-phone")
            try await second.start()
            let record = try #require(await second.allRecords().first)
            #expect(record.state == .finished && record.finishReason == .finishedByServer)
            let charged = await fixture.charges(device: "kim-phone").map(\.transactionId)
            #expect([record.transactionId] == charged)
            #expect(try await fixture.wallet("kim") == ["coins": 100])
            await second.stop()
        }
    }

    @Test func anOrderTheServerDidNotFulfilIsStillCancelledAfterAKillBeforePaying() async throws {
        try await withFixture(notifications: true) { fixture in
            let (doomed, _) = await fixture.pipeline(player: "hal", device: "hal-phone", crashAt: .beforeStorePurchase)
            try await doomed.start()
            await #expect(throws: SimulatedCrash.self) { try await doomed.purchase(productId: "coins100") }

            let (revived, _) = await fixture.pipeline(player: "hal", device: "hal-phone")
            try await revived.start()
            let records = await revived.allRecords()
            #expect(records.map(\.state) == [.cancelled])
            #expect(records.first?.finishReason == nil && records.first?.orderId != nil)
            await revived.stop()
        }
    }

    @Test func theAppFinishingRecordsWhy() async throws {
        try await withFixture { fixture in
            let (pipeline, _) = await fixture.pipeline(player: "ivy", device: "ivy-phone")
            try await pipeline.start()
            let outcome = try await pipeline.purchase(productId: "coins100")
            #expect(outcome.record.state == .finished && outcome.record.finishReason == .delivered)
            await pipeline.stop()
        }
    }

    @Test func aJournalLineWrittenBeforeReasonsWereKeptStillLoads() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = FilePurchaseJournal(url: directory.appendingPathComponent("journal"))
        var record = PurchaseRecord(playerId: "old", productId: "coins100", state: .finished, now: Date())
        record.transactionFinished = true
        try await journal.write(record)
        let text = try String(contentsOf: directory.appendingPathComponent("journal"), encoding: .utf8)
        #expect(!text.contains("finishReason"))
        #expect(try await journal.load().records.map(\.finishReason) == [nil])
    }
}
