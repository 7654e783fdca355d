import AppStoreEmulator
import Foundation
import PurchaseSDK
import PurchaseSDKEmulator
import Testing

/// A kill at every step boundary: the pipeline dies there, a new one starts on the same
/// journal and the same emulated phone, and the order ends delivered exactly once with
/// the transaction finished — or, when the kill came before Apple charged, with nothing
/// charged and nothing delivered.
@Suite(.timeLimit(.minutes(3))) struct CrashRecoveryTests {
    /// Boundaries before the store charges: a kill there costs the player nothing.
    private static let beforeCharge: Set<PipelineBoundary> = [.beforeOrder, .afterOrder, .beforeStorePurchase]

    /// Also with a journal that forgets every closed order at once: it must never forget
    /// one the pipeline still owes a delivery or a finish.
    @Test(arguments: [JournalRetention.standard, JournalRetention(closedRecordLimit: 0)])
    func aKillAtEveryBoundaryDeliversExactlyOnce(retention: JournalRetention) async throws {
        try await withFixture { fixture in
            for boundary in PipelineBoundary.allCases {
                let player = "crash-\(boundary.rawValue)"
                let device = "phone-\(boundary.rawValue)"
                let (doomed, _) = await fixture.pipeline(
                    player: player, device: device, crashAt: boundary, retention: retention)
                try await doomed.start()
                await #expect(throws: SimulatedCrash(at: boundary)) {
                    try await doomed.purchase(productId: "coins100")
                }

                let (revived, _) = await fixture.pipeline(player: player, device: device, retention: retention)
                try await revived.start()
                await revived.waitUntilIdle()
                let records = await revived.allRecords()
                #expect(records.count == 1, "\(boundary)")

                if Self.beforeCharge.contains(boundary) {
                    #expect(records.first?.state == .cancelled, "\(boundary)")
                    #expect(await fixture.charges(device: device).isEmpty, "\(boundary)")
                    #expect(try await fixture.purchases(player).isEmpty, "\(boundary)")
                    let again = try await revived.purchase(productId: "coins100")
                    guard case .delivered = again else {
                        Issue.record("\(boundary): buying again gave \(again)")
                        continue
                    }
                }
                let charges = await fixture.charges(device: device)
                #expect(charges.count == 1, "\(boundary)")
                #expect(charges.map(\.finished) == [true], "\(boundary): the transaction is finished")
                let purchases = try await fixture.purchases(player)
                #expect(purchases.map(\.transactionId) == charges.map(\.transactionId), "\(boundary)")
                #expect(try await fixture.wallet(player) == ["coins": 100], "\(boundary)")
                let finished = await revived.allRecords().filter { $0.state == .finished }
                #expect(finished.map(\.transactionId) == charges.map(\.transactionId), "\(boundary)")
                #expect(finished.first?.orderId == purchases.first?.orderId, "\(boundary): bound to its order")
                let closed = Self.beforeCharge.contains(boundary) ? 2 : 1
                let kept = try await FilePurchaseJournal(url: fixture.journalURL(device: device)).load().records
                #expect(kept.count == min(closed, retention.closedRecordLimit), "\(boundary): closed orders kept")
                await revived.stop()
            }
        }
    }

    @Test func aResumedDeliveryIsAnnouncedOnTheOutcomeStream() async throws {
        try await withFixture { fixture in
            let (doomed, _) = await fixture.pipeline(player: "ann", crashAt: .beforeServerCall)
            try await doomed.start()
            await #expect(throws: SimulatedCrash.self) { try await doomed.purchase(productId: "potion") }

            let (revived, _) = await fixture.pipeline(player: nil)
            #expect(await revived.pendingDeliveries().isEmpty)
            try await revived.start()
            var outcomes = revived.outcomes.makeAsyncIterator()
            let outcome = await outcomes.next()
            guard case .delivered(let record) = outcome else {
                Issue.record("expected a delivery, got \(String(describing: outcome))")
                return
            }
            #expect(record.playerId == "ann")
            #expect(record.productId == "potion")
            #expect(record.delivery?.status == "delivered")
            #expect(await revived.pendingDeliveries().isEmpty)
            await revived.stop()
        }
    }
}
