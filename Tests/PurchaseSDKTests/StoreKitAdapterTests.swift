import AppStoreEmulator
import Foundation
import PurchaseSDK
import PurchaseSDKStoreKit
import Testing

/// The pipeline's matrix through the StoreKit adapters (`StoreKitStoreClient` and
/// `StoreKit1StoreClient` over StoreKit for Linux), on the DevStack's emulator. They point
/// StoreKit at it through the process's STOREKEEPER_STOREKIT_* variables, so this suite is
/// serialized, and it is the only one that sets them.
@Suite(.serialized, .timeLimit(.minutes(5))) struct StoreKitAdapterTests {
    private static let adapters: [StoreAdapter] = [.storeKit2, .storeKit1]
    /// Boundaries before the store charges: a kill there costs the player nothing.
    private static let beforeCharge: Set<PipelineBoundary> = [.beforeOrder, .afterOrder, .beforeStorePurchase]

    @Test(arguments: adapters)
    func aPurchaseIsReportedThenFinishedAfterTheServersAnswer(adapter: StoreAdapter) async throws {
        try await withFixture { fixture in
            let unfinishedAtReport = Flag()
            let (pipeline, _) = await fixture.pipeline(
                player: "ada",
                hook: { boundary, _ in
                    if boundary == .afterServerCall {
                        await unfinishedAtReport.set(await fixture.charges().map(\.finished) == [false])
                    }
                }, adapter: adapter)
            try await pipeline.start()
            let outcome = try await pipeline.purchase(productId: "coins100")
            guard case .delivered(let record) = outcome else {
                Issue.record("\(adapter): \(outcome)")
                return
            }
            #expect(await unfinishedAtReport.value, "\(adapter): not finished before the server answered")
            // StoreKit 1's finishTransaction tells the App Store after it returns.
            try await fixture.eventually("\(adapter): finished") { await fixture.charges().map(\.finished) == [true] }
            let purchase = try #require(try await fixture.purchases("ada").first)
            #expect(purchase.orderId == record.orderId, "\(adapter): bound to its order by the token")
            #expect(
                purchase.source == (adapter == .storeKit1 ? .clientReceipt : .clientSignedTransaction), "\(adapter)")
            #expect((record.signedTransaction == nil) == (adapter == .storeKit1), "\(adapter)")
            #expect(try await fixture.wallet("ada") == ["coins": 100], "\(adapter)")
            await pipeline.stop()
        }
    }

    @Test(arguments: adapters)
    func aKillAtEveryBoundaryDeliversExactlyOnce(adapter: StoreAdapter) async throws {
        try await withFixture { fixture in
            for boundary in PipelineBoundary.allCases {
                let player = "crash-\(adapter.rawValue)-\(boundary.rawValue)"
                let device = "phone-\(adapter.rawValue)-\(boundary.rawValue)"
                let (doomed, _) = await fixture.pipeline(
                    player: player, device: device, crashAt: boundary, adapter: adapter)
                try await doomed.start()
                do {
                    let outcome = try await doomed.purchase(productId: "coins100")
                    Issue.record("\(adapter) \(boundary): the pipeline outlived its crash: \(outcome)")
                } catch let crash as SimulatedCrash {
                    #expect(crash == SimulatedCrash(at: boundary), "\(adapter) \(boundary)")
                } catch let error as PurchaseError where error == .notRunning {
                    // StoreKit 1 also shows the transaction to the queue's observer: the
                    // update path reached the boundary first and the pipeline died there.
                    #expect(!Self.beforeCharge.contains(boundary), "\(adapter) \(boundary): died before the charge")
                }
                await doomed.stop()

                let (revived, _) = await fixture.pipeline(player: player, device: device, adapter: adapter)
                try await revived.start()
                if Self.beforeCharge.contains(boundary) {
                    await revived.waitUntilIdle()
                    #expect(await revived.allRecords().map(\.state) == [.cancelled], "\(adapter) \(boundary)")
                    #expect(await fixture.charges(device: device).isEmpty, "\(adapter) \(boundary)")
                    guard case .delivered = try await revived.purchase(productId: "coins100") else {
                        Issue.record("\(adapter) \(boundary): buying again was not delivered")
                        continue
                    }
                }
                try await fixture.eventually("\(adapter) \(boundary): finished") {
                    await fixture.charges(device: device).map(\.finished) == [true]
                }
                await revived.waitUntilIdle()
                let charges = await fixture.charges(device: device)
                let purchases = try await fixture.purchases(player)
                #expect(purchases.map(\.transactionId) == charges.map(\.transactionId), "\(adapter) \(boundary)")
                #expect(try await fixture.wallet(player) == ["coins": 100], "\(adapter) \(boundary)")
                let finished = await revived.allRecords().filter { $0.state == .finished }
                #expect(finished.map(\.transactionId) == charges.map(\.transactionId), "\(adapter) \(boundary)")
                await revived.stop()
            }
        }
    }

    @Test(arguments: adapters)
    func aServerOutageAndLostAnswersDeliverOnce(adapter: StoreAdapter) async throws {
        try await withFixture { fixture in
            await fixture.faults.add(.status(503), times: 2, path: "/v1/purchases")
            await fixture.faults.add(.loseAnswer, times: 2, path: "/v1/purchases")
            let (pipeline, _) = await fixture.pipeline(player: "otto", adapter: adapter)
            try await pipeline.start()
            guard case .delivered = try await pipeline.purchase(productId: "coins100") else {
                Issue.record("\(adapter): not delivered")
                return
            }
            #expect(try await fixture.purchases("otto").count == 1, "\(adapter): the duplicate reports granted once")
            #expect(try await fixture.wallet("otto") == ["coins": 100], "\(adapter)")
            // StoreKit 1's finishTransaction tells the App Store after it returns.
            try await fixture.eventually("\(adapter): finished") { await fixture.charges().map(\.finished) == [true] }
            await pipeline.stop()
        }
    }

    /// The second launch is a second pipeline in this process: StoreKit 2's
    /// `Transaction.updates` must yield the approval even when it comes before the new
    /// listener's first look (it is then an unfinished transaction no listener yielded).
    @Test(arguments: adapters)
    func askToBuyStaysPendingAcrossLaunchesUntilApproved(adapter: StoreAdapter) async throws {
        try await withFixture { fixture in
            // A device of its own: StoreKit for Linux remembers the transactions it answered
            // per emulator URL and device, and an earlier test's emulator may have had this
            // port and numbered its transactions from 1 too.
            let device = "asker-\(adapter.rawValue)"
            try await fixture.stack.emulator.updateDevice(device, settings: DeviceSettings(askToBuy: true))
            let (first, _) = await fixture.pipeline(player: "pia", device: device, adapter: adapter)
            try await first.start()
            let asked = try await first.purchase(productId: "coins100")
            guard case .pending = asked else {
                Issue.record("\(adapter): expected pending, got \(asked)")
                return
            }
            await first.stop()

            let (second, _) = await fixture.pipeline(player: nil, device: device, adapter: adapter)
            try await second.start()
            #expect(await second.pendingDeliveries().map(\.state) == [.pending], "\(adapter)")
            var outcomes = second.outcomes.makeAsyncIterator()
            let pending = try #require(await fixture.stack.emulator.pendingPurchases(deviceId: device).first)
            _ = try await fixture.stack.emulator.approvePendingPurchase(pending.pendingId)
            guard case .delivered(let record) = await outcomes.next() else {
                Issue.record("\(adapter): the approval was not delivered")
                return
            }
            #expect(record.id == asked.record.id, "\(adapter)")
            #expect(try await fixture.wallet("pia") == ["coins": 100], "\(adapter)")
            // StoreKit 1's finishTransaction tells the App Store after it returns.
            try await fixture.eventually("\(adapter): finished") {
                await fixture.charges(device: device).map(\.finished) == [true]
            }
            await second.stop()
        }
    }

    @Test(arguments: adapters)
    func aPromotedPurchaseWaitsForAPlayer(adapter: StoreAdapter) async throws {
        try await withFixture { fixture in
            let (pipeline, _) = await fixture.pipeline(player: nil, adapter: adapter)
            try await pipeline.start()
            var outcomes = pipeline.outcomes.makeAsyncIterator()
            _ = try await fixture.stack.emulator.promote(deviceId: "phone", productId: "coins500")
            try await fixture.eventually("\(adapter): the app took the promotion") {
                await fixture.stack.emulator.promotions(deviceId: "phone").isEmpty
            }
            #expect(await pipeline.allRecords().isEmpty, "\(adapter): held, no player to order for")
            #expect(await fixture.charges().isEmpty, "\(adapter)")

            await pipeline.signIn(playerId: "quinn")
            guard case .delivered(let record) = await outcomes.next() else {
                Issue.record("\(adapter): the promoted purchase was not delivered")
                return
            }
            #expect(record.origin == .promoted, "\(adapter)")
            #expect(try await fixture.wallet("quinn") == ["coins": 500], "\(adapter)")
            // StoreKit 1's finishTransaction tells the App Store after it returns.
            try await fixture.eventually("\(adapter): finished") { await fixture.charges().map(\.finished) == [true] }
            await pipeline.stop()
        }
    }

    @Test(arguments: adapters)
    func aTransactionOfAnotherPlayersOrderGoesToThePlayerWhoOrdered(adapter: StoreAdapter) async throws {
        try await withFixture { fixture in
            let (first, _) = await fixture.pipeline(player: "wren", crashAt: .afterStorePurchase, adapter: adapter)
            try await first.start()
            await #expect(throws: SimulatedCrash.self) { try await first.purchase(productId: "coins100") }
            await first.stop()
            // Another player signs in on the phone before the delivery resumes.
            let (second, _) = await fixture.pipeline(player: "yves", adapter: adapter)
            try await second.start()
            await second.waitUntilIdle()
            try await fixture.eventually("\(adapter): finished") { await fixture.charges().map(\.finished) == [true] }
            #expect(try await fixture.wallet("wren") == ["coins": 100], "\(adapter)")
            #expect(try await fixture.wallet("yves").isEmpty, "\(adapter)")
            await second.stop()
        }
    }

    /// A second phone of the Apple account restores through each adapter: what the player
    /// has is `already_owned`, what the game never heard of is `restored` and delivered
    /// (StoreKit 1 reports it by id with the app receipt, which lists the account's
    /// non-consumables and subscriptions).
    @Test(arguments: adapters)
    func aRestoreOnASecondPhoneDeliversWhatTheGameNeverHeardOf(adapter: StoreAdapter) async throws {
        try await withFixture { fixture in
            let (phone, tablet) = ("remy-phone-\(adapter.rawValue)", "remy-tablet-\(adapter.rawValue)")
            let old = "remy-old-phone-\(adapter.rawValue)"
            for device in [phone, tablet, old] {
                _ = try await fixture.stack.emulator.updateDevice(
                    device, settings: DeviceSettings(appleAccount: "remy-apple-\(adapter.rawValue)"))
            }
            let (first, _) = await fixture.pipeline(player: "remy", device: phone, adapter: adapter)
            try await first.start()
            guard case .delivered = try await first.purchase(productId: "levelpack1") else {
                Issue.record("\(adapter): not delivered")
                return
            }
            await first.stop()
            // A subscription the game never heard of, bought on an old phone of the account
            // that died before reporting it (a device this process's StoreKit never polls:
            // its payment queue serves the process's one device at a time).
            let lost = try await fixture.stack.emulator.purchase(
                deviceId: old, PurchaseRequest(productId: "vip.monthly"))
            let lostId = try #require(lost.transactionId)
            try await fixture.stack.emulator.finishTransaction(deviceId: old, transactionId: lostId)

            let (second, _) = await fixture.pipeline(player: "remy", device: tablet, adapter: adapter)
            try await second.start()
            let restored = try await second.restore()
            let statuses = restored.results.map { "\($0.productId) \($0.status.rawValue)" }.sorted()
            #expect(statuses == ["levelpack1 already_owned", "vip.monthly restored"], "\(adapter)")
            #expect(restored.entitlements.entitledIds == ["levelpack1", "vip"], "\(adapter)")
            let purchase = try #require(try await fixture.purchases("remy").first { $0.transactionId == lostId })
            #expect(
                purchase.source == (adapter == .storeKit1 ? .clientReceipt : .clientSignedTransaction), "\(adapter)")
            await second.stop()
        }
    }
}

/// A Boolean set from a hook.
private actor Flag {
    private(set) var value = false
    func set(_ value: Bool) { self.value = value }
}
