import AppStoreEmulator
import AsyncHTTPClient
import Foundation
import PurchaseSDK
import PurchaseSDKEmulator
import PurchaseServer

/// One phone running the game with the StoreKeeper SDK: one or two players take turns on
/// it, and the faults its plan rolls strike it (kills, reinstalls, account switches,
/// refunds, Ask to Buy, promoted purchases).
actor SimulatedDevice: GamePhone {
    let id: String
    nonisolated let players: [String]
    private let index: Int
    private let world: SimulationWorld
    private let generation: InProcessStoreClient.Generation
    private let weather: NetworkWeather
    private let promotions = PromotionBroadcaster()
    private let storage: PhoneStorage
    /// The phone's own connections to the server.
    private let http: HTTPClient
    private var dice: FaultDice
    private var pipeline: PurchasePipeline?
    private var signedIn: String?
    private var crashed = false
    private var calm = false
    private var plan: DevicePlan?
    private var refundsToReverse: [String] = []

    init(
        index: Int, players: [String], generation: InProcessStoreClient.Generation, world: SimulationWorld
    ) {
        id = "device-\(index)"
        storage = PhoneStorage(label: id)
        http = world.phones.client()
        self.index = index
        self.players = players
        self.world = world
        dice = FaultDice(rates: world.rates, seed: world.seed, salt: UInt64(index) << 1)
        weather = NetworkWeather(
            dice: FaultDice(rates: world.rates, seed: world.seed, salt: UInt64(index) << 1 | 1), tally: world.tally)
        self.generation = generation
        signedIn = players[0]
    }

    /// Makes `count` purchases, one after another, under the faults the plan rolls.
    func run(purchases count: Int) async {
        await launch()
        for _ in 0..<count { await purchaseNext() }
    }

    /// Launches the app, before a serial run's first turn.
    func start() async {
        await launch()
    }

    /// Makes the next purchase under the faults its plan rolls; in a serial run, returns
    /// only once the app has nothing left to do, so the next device's turn starts from rest.
    func purchaseNext() async {
        let plan = DevicePlan(dice: &dice, products: world.products, sharedDevice: players.count > 1)
        await purchase(plan)
        if world.serial { await settle() }
    }

    /// In a serial run, waits (up to 10 s) until the app has nothing left to do: no order
    /// being worked on or with work left, nothing unfinished in the store. Anything the
    /// store's transaction updates would otherwise pick up at a moment of their own is
    /// then handled at a fixed point of the turn.
    private func settle() async {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !crashed, let pipeline {
            await pipeline.waitUntilIdle()
            let unfinished = (try? await world.emulator.unfinishedTransactions(deviceId: id)) ?? []
            let working = await pipeline.allRecords().contains(where: \.hasWorkLeft)
            if unfinished.isEmpty && !working { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Ends the faults, lets the parent decide every Ask to Buy, relaunches a killed app and
    /// waits until its pipeline has nothing left to do.
    func quiesce(deadline: ContinuousClock.Instant) async {
        calm = true
        plan = nil
        await weather.calmDown()
        await decideAskToBuy(approving: true)
        if crashed || pipeline == nil { await relaunch() }
        if signedIn == nil { await signIn(players[0]) }
        while ContinuousClock.now < deadline {
            await pipeline?.waitUntilIdle()
            let unfinished = (try? await world.emulator.unfinishedTransactions(deviceId: id)) ?? []
            let owed = await pipeline?.pendingDeliveries().filter { $0.state != .pending } ?? []
            if unfinished.isEmpty && owed.isEmpty { return }
            if crashed { await relaunch() }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// What is still left on this device, for each purchase with work left: the journal's
    /// unsettled orders, the store's unfinished transactions, pending Ask to Buy, and
    /// whether the app runs at all.
    func waits() async -> [DeviceWait] {
        var waits: [DeviceWait] = []
        let running = pipeline != nil && !crashed
        for transaction in (try? await world.emulator.unfinishedTransactions(deviceId: id)) ?? [] {
            waits += DeviceWait.storeHeld(
                transaction.transactionId, "unfinished in the store on \(id)", running: running, on: id)
        }
        waits += await DeviceWait.journal(of: pipeline, on: id)
        for pending in await world.emulator.pendingPurchases(deviceId: id) {
            waits.append(
                DeviceWait(
                    transactionId: nil, token: pending.appAccountToken,
                    wait: PurchaseWait(.askToBuy, "Ask to Buy \(pending.pendingId) on \(id), \(pending.productId)")))
        }
        return waits
    }

    /// Stops the app.
    func shutDown() async {
        await pipeline?.stop()
        pipeline = nil
    }

    // MARK: One purchase

    private func purchase(_ plan: DevicePlan) async {
        self.plan = plan
        defer { self.plan = nil }
        if crashed || pipeline == nil { await relaunch() }
        if plan.parentDecidesNow { await decideAskToBuy(approving: plan.parentApproves) }
        await reverseRefunds()
        if world.serial { await settle() }
        if plan.switchesPlayerFirst { await switchPlayer() }
        if plan.restartsServer {
            // Serial runs restart the server before the purchase rather than during it.
            let instance = plan.serverInstanceRoll % world.serverURLs.count
            if world.serial {
                try? await world.chaos.restart(
                    instance: instance, downtimeMilliseconds: plan.serverDowntimeMilliseconds)
            } else {
                await world.chaos.schedule(instance: instance, downtimeMilliseconds: plan.serverDowntimeMilliseconds)
            }
        }
        if plan.forges { await world.attacker.forge(productId: plan.productId) }
        if plan.replays { await world.attacker.replay() }
        if plan.promoted {
            await promote(plan)
        } else {
            await buy(plan)
        }
        if plan.reinstalls { await reinstall(keepingKeychain: plan.keepsKeychain) }
    }

    private func buy(_ plan: DevicePlan) async {
        if signedIn == nil { await signIn(players[0]) }
        guard let pipeline else {
            await world.tally.count(outcome: "app_not_running", device: id)
            return
        }
        if plan.asksToBuy {
            _ = try? await world.emulator.updateDevice(id, settings: DeviceSettings(askToBuy: true))
        }
        let outcome: PurchaseOutcome
        do {
            outcome = try await pipeline.purchase(productId: plan.productId, quantity: plan.quantity)
        } catch {
            await world.tally.count(outcome: error is SimulatedCrash ? "killed" : "app_not_running", device: id)
            // Killed (or found dead): the next purchase relaunches the app.
            if plan.asksToBuy {
                _ = try? await world.emulator.updateDevice(id, settings: DeviceSettings(askToBuy: false))
            }
            crashed = true
            return
        }
        await world.tally.count(outcome, device: id)
        if plan.asksToBuy {
            _ = try? await world.emulator.updateDevice(id, settings: DeviceSettings(askToBuy: false))
            if case .pending(let record) = outcome {
                await world.tally.count(.askToBuy)
                await note("waits for Ask to Buy", record)
            }
        }
        guard case .delivered(let record) = outcome, let transactionId = record.transactionId else { return }
        if plan.refundsAfterDelivery { await refund(transactionId, reversing: plan.reversesRefund) }
        if plan.requestsConsumption {
            if (try? await world.emulator.requestConsumption(transactionId: transactionId)) != nil {
                await world.tally.count(.consumptionRequest)
                await world.book.note("Apple asks for consumption information", about: transactionId)
            }
        }
    }

    private func promote(_ plan: DevicePlan) async {
        await world.tally.count(.promotedPurchase)
        if plan.promotedWhileSignedOut {
            signedIn = nil
            await pipeline?.signOut()
        }
        await world.promote(plan.productId, on: id, promotions: promotions)
        if plan.promotedWhileSignedOut {
            try? await Task.sleep(for: .milliseconds(50))
            await signIn(players[0])
        }
    }

    // MARK: The pipeline's step boundaries

    /// Called by the pipeline at every step boundary: records the ground truth, and
    /// strikes with the plan's kill, account switch and early refund.
    private func pass(_ boundary: PipelineBoundary, _ record: PurchaseRecord) async throws {
        if boundary == .beforeStorePurchase, let token = record.appAccountToken {
            await world.book.recordPayment(
                token: token, player: record.playerId, productId: record.productId, device: id)
        }
        if boundary == .beforeReport, let transactionId = record.transactionId {
            if let token = record.appAccountToken {
                await world.book.note("charged: transaction \(transactionId)", about: token)
            }
            if let signed = record.signedTransaction { await world.attacker.capture(signed) }
            if plan?.refundsBeforeDelivery == true {
                plan?.refundsBeforeDelivery = false
                await refund(transactionId, reversing: plan?.reversesRefund == true)
                // Serial runs let the REFUND reach the server (or fail to) before the report.
                if world.serial { await world.emulator.waitForNotificationDeliveries() }
            }
        }
        guard !calm else { return }
        if let at = plan?.switchesPlayerAt, at == boundary {
            plan?.switchesPlayerAt = nil
            await switchPlayer()
        }
        if let at = plan?.killsAt, at == boundary {
            plan?.killsAt = nil
            crashed = true
            await world.tally.count(.appKill)
            await note("app killed at \(boundary.rawValue)", record)
            throw SimulatedCrash(at: boundary)
        }
    }

    // MARK: Faults

    private func switchPlayer() async {
        guard let other = players.first(where: { $0 != signedIn }) else { return }
        await world.tally.count(.accountSwitch)
        await signIn(other)
    }

    private func signIn(_ player: String) async {
        signedIn = player
        await pipeline?.signIn(playerId: player)
    }

    private func refund(_ transactionId: String, reversing: Bool) async {
        guard (try? await world.emulator.refund(transactionId: transactionId)) != nil else { return }
        await world.tally.count(.refund)
        await world.book.note("Apple refunds it", about: transactionId)
        if reversing { refundsToReverse.append(transactionId) }
    }

    private func reverseRefunds() async {
        for transactionId in refundsToReverse
        where (try? await world.emulator.reverseRefund(transactionId: transactionId)) != nil {
            await world.tally.count(.refundReversal)
            await world.book.note("Apple reverses the refund", about: transactionId)
        }
        refundsToReverse.removeAll()
    }

    private func decideAskToBuy(approving: Bool) async {
        for pending in await world.emulator.pendingPurchases(deviceId: id) {
            if approving {
                _ = try? await world.emulator.approvePendingPurchase(pending.pendingId, includesReceipt: false)
            } else {
                try? await world.emulator.declinePendingPurchase(pending.pendingId)
            }
            if let token = pending.appAccountToken {
                await world.book.note("the parent \(approving ? "approves" : "declines")", about: token)
            }
        }
    }

    private func reinstall(keepingKeychain: Bool) async {
        await pipeline?.stop()
        pipeline = nil
        try? FileManager.default.removeItem(at: appDirectory)
        if !keepingKeychain { try? FileManager.default.removeItem(at: keychainDirectory) }
        await world.tally.count(keepingKeychain ? .reinstallKeepingKeychain : .reinstallLosingKeychain)
        await relaunch()
    }

    // MARK: Launching the app

    private var appDirectory: URL { world.directory.appendingPathComponent("\(id)/app") }
    private var keychainDirectory: URL { world.directory.appendingPathComponent("\(id)/keychain") }

    private func relaunch() async {
        await pipeline?.stop()
        pipeline = nil
        await launch()
    }

    private func launch() async {
        crashed = false
        let store: any StoreClient
        do {
            store = try world.storeClient(
                deviceId: id, generation: generation, promotions: promotions,
                dataDirectory: appDirectory.appendingPathComponent("storekit"))
        } catch {
            crashed = true
            return
        }
        let pipeline = world.pipeline(
            store: store, deviceId: id, index: index, appDirectory: appDirectory, keychainDirectory: keychainDirectory,
            storage: storage, http: http, weather: weather, playerId: signedIn,
            hooks: PipelineHooks { [weak self] boundary, record in try await self?.pass(boundary, record) })
        do {
            try await pipeline.start()
            self.pipeline = pipeline
        } catch {
            crashed = true
        }
    }

    private func note(_ line: String, _ record: PurchaseRecord) async {
        await world.book.note(
            "\(line) (\(id), \(record.playerId), \(record.productId))", about: record.appAccountToken ?? record.id)
    }
}
