import AppStoreEmulator
import Foundation
import PurchaseSDK
import PurchaseSDKEmulator
import Testing

/// `restore()` end to end, on the emulator and the purchase server: a second phone of the
/// same Apple account, a second game account, a consumable, and a kill between the
/// server's answer and the finish.
@Suite(.timeLimit(.minutes(3))) struct RestoreTests {
    /// A store that keeps its transaction updates from the app, so a transaction that
    /// turns up after `start()` reaches the pipeline only through `restore()`.
    private static func quiet(_ store: EmulatorStoreClient) -> any StoreClient {
        ShapedStore(base: store, sendsUpdates: false)
    }

    @Test func aSecondPhoneOfTheAppleAccountRelinksWithoutGrantingAgain() async throws {
        try await withFixture { fixture in
            for device in ["amy-phone", "amy-tablet"] {
                _ = try await fixture.stack.emulator.updateDevice(
                    device, settings: DeviceSettings(appleAccount: "amy-apple"))
            }
            let (phone, _) = await fixture.pipeline(player: "amy", device: "amy-phone")
            try await phone.start()
            var bought: [String: PurchaseRecord] = [:]
            for product in ["vip.monthly", "coins100"] {
                let outcome = try await phone.purchase(productId: product)
                guard case .delivered(let record) = outcome else {
                    Issue.record("\(product): \(outcome)")
                    return
                }
                bought[product] = record
            }
            await phone.stop()
            // A level pack the game never heard of (the app died and its journal was lost).
            let lost = try await fixture.stack.emulator.purchase(
                deviceId: "amy-phone", PurchaseRequest(productId: "levelpack1"))
            let lostId = try #require(lost.transactionId)
            try await fixture.stack.emulator.finishTransaction(deviceId: "amy-phone", transactionId: lostId)
            let wallet = try await fixture.wallet("amy")
            let delivered = try await fixture.purchases("amy").map(\.transactionId)

            let coins = try #require(bought["coins100"])
            let consumable = StoreTransaction(
                transactionId: try #require(coins.transactionId), productId: "coins100", appAccountToken: nil,
                signedTransaction: coins.signedTransaction)
            // A restore the client retried after its timeout answers `already_owned` for what
            // the first attempt restored: the long timeout keeps a loaded machine from
            // turning this test's one attempt into two.
            let (tablet, _) = await fixture.pipeline(
                player: "amy", device: "amy-tablet", timeout: 60,
                shape: { ShapedStore(base: $0, alsoCurrent: [consumable]) })
            try await tablet.start()
            let restored = try await tablet.restore()
            let statuses = Dictionary(uniqueKeysWithValues: restored.results.map { ($0.productId, $0.status) })
            #expect(statuses == ["levelpack1": .restored, "vip.monthly": .alreadyOwned, "coins100": .notRestorable])
            #expect(restored.results.first { $0.productId == "levelpack1" }?.transactionId == lostId)
            #expect(restored.results.allSatisfy { !$0.finishedByRestore }, "nothing was unfinished on the tablet")
            #expect(!restored.entitlements.isCached && restored.entitlements.entitledIds == ["levelpack1", "vip"])
            #expect(try await fixture.purchases("amy").map(\.transactionId).sorted() == (delivered + [lostId]).sorted())
            #expect(try await fixture.wallet("amy") == wallet, "the coins are not granted again")
            await tablet.stop()

            // A second game account restores on the same tablet: the first player keeps them.
            let (other, _) = await fixture.pipeline(player: "amy-alt", device: "amy-tablet")
            try await other.start()
            let kept = try await other.restore()
            #expect(kept.results.map(\.status) == [.keptByOtherPlayer, .keptByOtherPlayer])
            #expect(kept.entitlements.entitledIds.isEmpty)
            #expect(try await fixture.purchases("amy-alt").isEmpty)
            let held = try await fixture.stack.store.entitlements(playerId: "amy").filter { $0.isEntitled(at: Date()) }
            #expect(Set(held.map(\.entitlementId)) == ["levelpack1", "vip"])
            await other.stop()
        }
    }

    @Test(arguments: [PipelineBoundary.afterServerCall, .beforeFinish])
    func aKillBetweenTheRestoreAndTheFinishEndsFinishedAfterTheNextStart(boundary: PipelineBoundary) async throws {
        try await withFixture { fixture in
            let (doomed, _) = await fixture.pipeline(
                player: "kim", device: "kim-phone", crashAt: boundary, shape: Self.quiet)
            try await doomed.start()
            let bought = try await fixture.stack.emulator.purchase(
                deviceId: "kim-phone", PurchaseRequest(productId: "levelpack1"))
            let transactionId = try #require(bought.transactionId)
            await #expect(throws: SimulatedCrash(at: boundary)) { try await doomed.restore() }
            #expect(await fixture.charges(device: "kim-phone").map(\.finished) == [false])
            #expect(try await fixture.purchases("kim").map(\.transactionId) == [transactionId])

            let (revived, _) = await fixture.pipeline(player: "kim", device: "kim-phone")
            try await revived.start()
            await revived.waitUntilIdle()
            #expect(await fixture.charges(device: "kim-phone").map(\.finished) == [true])
            #expect(try await fixture.purchases("kim").map(\.transactionId) == [transactionId], "delivered once")
            let records = await revived.allRecords()
            #expect(records.map(\.transactionId) == [transactionId])
            #expect(records.map(\.state) == [.finished])
            if boundary == .beforeFinish { #expect(records.map(\.origin) == [.restore]) }
            #expect(await revived.entitlements().entitledIds == ["levelpack1"])
            await revived.stop()
        }
    }

    @Test func theEntitlementCacheAnswersOfflineAndDropsWhatIsPastItsUntil() async throws {
        try await withFixture { fixture in
            let (online, _) = await fixture.pipeline(player: "olga", device: "olga-phone")
            try await online.start()
            for product in ["vip.monthly", "levelpack1"] {
                guard case .delivered = try await online.purchase(productId: product) else {
                    Issue.record("\(product) was not delivered")
                    return
                }
            }
            let fresh = await online.entitlements()
            #expect(!fresh.isCached && fresh.entitledIds == ["vip", "levelpack1"])
            let fetchedAt = try #require(fresh.fetchedAt)
            let vipUntil = try #require(fresh.entitlements.first { $0.entitlementId == "vip" }?.until)
            await online.stop()

            await fixture.faults.add(.loseAnswer, times: 2, path: "/v1/players/me/entitlements")
            let (relaunched, _) = await fixture.pipeline(player: "olga", device: "olga-phone")
            let offline = await relaunched.entitlements()
            #expect(offline.isCached && offline.refreshFailure == "network_error")
            #expect(abs(try #require(offline.fetchedAt).timeIntervalSince(fetchedAt)) < 0.001)
            #expect(offline.entitlements == fresh.entitlements)

            let (afterExpiry, _) = await fixture.pipeline(
                player: "olga", device: "olga-phone", clock: ManualClock(vipUntil))
            let lapsed = await afterExpiry.entitlements()
            #expect(lapsed.isCached && lapsed.entitledIds == ["levelpack1"])
            #expect(lapsed.entitlements.first { $0.entitlementId == "vip" }?.state == .expired)
            #expect(await fixture.faults.injected == 2)
        }
    }
}
