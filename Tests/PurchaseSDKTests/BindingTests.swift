import AppStoreEmulator
import Foundation
import Ledger
import PurchaseSDK
import Testing

/// The goods go to the player who ordered: whatever Apple drops, whoever is signed in when
/// the report goes out, and even when the journal is gone.
@Suite(.timeLimit(.minutes(3))) struct BindingTests {
    @Test(arguments: [PipelineBoundary.afterStorePurchase, .beforeReport])
    func aTransactionWithoutTokenIsBoundFromTheJournal(crashAt boundary: PipelineBoundary) async throws {
        try await withFixture { fixture in
            let (doomed, _) = await fixture.pipeline(
                player: "ivy", behaviour: .dropsAppAccountToken, crashAt: boundary)
            try await doomed.start()
            await #expect(throws: SimulatedCrash.self) { try await doomed.purchase(productId: "coins100") }
            #expect(await fixture.charges().map(\.appAccountToken) == [nil])

            let (revived, _) = await fixture.pipeline(player: "ivy", behaviour: .dropsAppAccountToken)
            try await revived.start()
            await revived.waitUntilIdle()
            let record = try #require(await revived.allRecords().first)
            #expect(record.state == .finished)
            let purchase = try #require(try await fixture.purchases("ivy").first)
            #expect(purchase.orderId == record.orderId, "bound to the order, not delivered unbound")
            #expect(!purchase.flags.contains("unbound"))
            #expect(await fixture.charges().map(\.finished) == [true])
            await revived.stop()
        }
    }

    @Test func anAccountSwitchBeforeTheReportStillDeliversToTheOrderer() async throws {
        try await withFixture { fixture in
            let (doomed, _) = await fixture.pipeline(player: "jack", crashAt: .beforeReport)
            try await doomed.start()
            await #expect(throws: SimulatedCrash.self) { try await doomed.purchase(productId: "coins100") }

            let (revived, _) = await fixture.pipeline(player: "kate")
            try await revived.start()
            await revived.waitUntilIdle()
            #expect(try await fixture.wallet("jack") == ["coins": 100])
            #expect(try await fixture.wallet("kate").isEmpty)
            #expect(await revived.allRecords().map(\.state) == [.finished])
            await revived.stop()
        }
    }

    @Test func aSwitchWhileTheServerIsUnreachableStillDeliversToTheOrderer() async throws {
        try await withFixture { fixture in
            await fixture.faults.add(.status(503), times: 2, path: "/v1/purchases")
            let holder = PipelineHolder()
            let (pipeline, _) = await fixture.pipeline(player: "liam") { boundary, _ in
                if boundary == .beforeServerCall { await holder.pipeline?.signIn(playerId: "mona") }
            }
            await holder.set(pipeline)
            try await pipeline.start()
            let outcome = try await pipeline.purchase(productId: "coins100")
            #expect(outcome.record.playerId == "liam")
            #expect(await pipeline.signedInPlayer == "mona")
            #expect(try await fixture.wallet("liam") == ["coins": 100])
            #expect(try await fixture.wallet("mona").isEmpty)
            await pipeline.stop()
        }
    }

    @Test func aLostJournalIsCoveredByTheServersNotificationPath() async throws {
        try await withFixture(notifications: true) { fixture in
            let (doomed, _) = await fixture.pipeline(player: "nina", crashAt: .afterStorePurchase)
            try await doomed.start()
            await #expect(throws: SimulatedCrash.self) { try await doomed.purchase(productId: "coins100") }
            try FileManager.default.removeItem(at: fixture.journalURL())
            let charged = try #require(await fixture.charges().first)

            // The server delivers it from ONE_TIME_CHARGE and finishes it at Apple.
            try await fixture.eventually("ONE_TIME_CHARGE delivered and finished") {
                let delivered = try await fixture.purchases("nina").map(\.transactionId) == [charged.transactionId]
                let finished = await fixture.charges().map(\.finished) == [true]
                return delivered && finished
            }
            #expect(try await fixture.purchases("nina").first?.source == .notification)

            let (reinstalled, _) = await fixture.pipeline(player: "nina")
            try await reinstalled.start()
            await reinstalled.waitUntilIdle()
            #expect(await reinstalled.allRecords().isEmpty, "nothing left unfinished to adopt")
            #expect(try await fixture.wallet("nina") == ["coins": 100])
            await reinstalled.stop()
        }
    }

    @Test func twoPurchasesInFlightAreBothDeliveredOnce() async throws {
        try await withFixture { fixture in
            let (pipeline, _) = await fixture.pipeline(player: "owen")
            try await pipeline.start()
            async let first = pipeline.purchase(productId: "coins100")
            async let second = pipeline.purchase(productId: "coins100")
            async let third = pipeline.purchase(productId: "potion")
            let outcomes = try await [first, second, third]
            #expect(outcomes.allSatisfy { if case .delivered = $0 { true } else { false } })
            #expect(Set(outcomes.compactMap(\.record.transactionId)).count == 3)
            #expect(try await fixture.wallet("owen") == ["coins": 200, "potion": 1])
            #expect(try await fixture.purchases("owen").count == 3)
            #expect(await fixture.charges().map(\.finished) == [true, true, true])
            await pipeline.stop()
        }
    }
}

/// Lets a hook reach the pipeline it is installed in.
actor PipelineHolder {
    private(set) var pipeline: PurchasePipeline?

    func set(_ pipeline: PurchasePipeline) {
        self.pipeline = pipeline
    }
}
