import AsyncHTTPClient
import Foundation
import PlayEmulator
import PurchaseSDK
import PurchaseSDKEmulator

/// An Android phone running the game with the StoreKeeper SDK: one player buys the
/// catalog's one-time products on Google Play through the SDK's pipeline over
/// ``PlayPhoneStoreClient`` (the SDK's Play store client), and the faults its plan rolls
/// strike it: kills at the pipeline's step boundaries, network faults to the server,
/// pending purchases paid or canceled later, and refunds before or after the delivery.
actor AndroidPhone: GamePhone {
    let id: String
    nonisolated let players: [String]
    private let index: Int
    private let world: SimulationWorld
    private let weather: NetworkWeather
    private let storage: PhoneStorage
    private let http: HTTPClient
    private let payment = PaymentChoice()
    private var dice: FaultDice
    private var pipeline: PurchasePipeline?
    private var crashed = false
    private var calm = false
    private var plan: AndroidPlan?

    /// The `index`-th Android phone, `player`'s.
    init(index: Int, player: String, world: SimulationWorld) {
        id = "android-\(index)"
        players = [player]
        storage = PhoneStorage(label: id)
        http = world.phones.client()
        self.index = index
        self.world = world
        // Salts apart from the Apple devices' (device numbers shifted by one bit).
        dice = FaultDice(rates: world.rates, seed: world.seed, salt: 0xA2D0_0000 | UInt64(index) << 1)
        weather = NetworkWeather(
            dice: FaultDice(rates: world.rates, seed: world.seed, salt: 0xA2D0_0000 | UInt64(index) << 1 | 1),
            tally: world.tally)
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

    /// Makes the next purchase under the faults its plan rolls.
    func purchaseNext() async {
        let plan = AndroidPlan(dice: &dice, products: world.products)
        self.plan = plan
        defer { self.plan = nil }
        if crashed || pipeline == nil { await relaunch() }
        if plan.settlesPendingNow { await settlePending(paying: plan.pendingPaid) }
        guard let pipeline else {
            await world.tally.count(outcome: "app_not_running", device: id)
            return
        }
        payment.paysSlowly = plan.paysSlowly
        defer { payment.paysSlowly = false }
        let outcome: PurchaseOutcome
        do {
            outcome = try await pipeline.purchase(productId: plan.productId, quantity: plan.quantity)
        } catch {
            await world.tally.count(outcome: error is SimulatedCrash ? "killed" : "app_not_running", device: id)
            crashed = true
            return
        }
        await world.tally.count(outcome, device: id)
        if case .pending(let record) = outcome, plan.paysSlowly {
            await world.tally.count(.playPending)
            await note("pending at Google Play", record)
        }
        if case .delivered(let record) = outcome, plan.voidsAfterDelivery, let googlePlay = record.googlePlay {
            await void(googlePlay, record)
        }
        // A serial run's next turn starts from rest.
        if world.serial { await pipeline.waitUntilIdle() }
    }

    /// Ends the faults, pays every pending purchase, relaunches a killed app and waits until
    /// its pipeline has nothing left to do. (What Google still lists unacknowledged is the
    /// server's to settle: the run's reconciler pass does, or Google's three-day rule
    /// refunds it.)
    func quiesce(deadline: ContinuousClock.Instant) async {
        calm = true
        plan = nil
        await weather.calmDown()
        await settlePending(paying: true)
        if crashed || pipeline == nil { await relaunch() }
        while ContinuousClock.now < deadline {
            await pipeline?.waitUntilIdle()
            let owed = await pipeline?.pendingDeliveries().filter { $0.state != .pending } ?? []
            if owed.isEmpty { return }
            if crashed { await relaunch() }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// What is still left on this phone, for each purchase with work left: the journal's
    /// unsettled orders, Google's paid purchases not yet acknowledged, pending purchases,
    /// and whether the app runs at all.
    func waits() async -> [DeviceWait] {
        var waits: [DeviceWait] = []
        let running = pipeline != nil && !crashed
        for purchase in await unacknowledged() {
            waits += DeviceWait.storeHeld(
                purchase.orderId, "paid and not acknowledged at Google on \(id)", running: running, on: id)
        }
        waits += await DeviceWait.journal(of: pipeline, on: id)
        for purchase in ((try? world.emulator.play.ledger()) ?? []) where purchase.deviceId == id && purchase.pending {
            waits.append(
                DeviceWait(
                    transactionId: nil, token: purchase.obfuscatedAccountId,
                    wait: PurchaseWait(.playPending, "pending at Google Play on \(id), \(purchase.productId)")))
        }
        return waits
    }

    /// Stops the app.
    func shutDown() async {
        await pipeline?.stop()
        pipeline = nil
    }

    // MARK: The pipeline's step boundaries

    /// Called by the pipeline at every step boundary: records the ground truth, and strikes
    /// with the plan's kill and early refund.
    private func pass(_ boundary: PipelineBoundary, _ record: PurchaseRecord) async throws {
        if boundary == .beforeStorePurchase, let token = record.appAccountToken {
            await world.book.recordPayment(
                token: token, player: record.playerId, productId: record.productId, device: id)
        }
        if boundary == .beforeReport, let transactionId = record.transactionId {
            if let token = record.appAccountToken {
                await world.book.note("charged: Google Play order \(transactionId)", about: token)
            }
            if plan?.voidsBeforeDelivery == true, let googlePlay = record.googlePlay {
                plan?.voidsBeforeDelivery = false
                await void(googlePlay, record)
            }
        }
        guard !calm else { return }
        if let at = plan?.killsAt, at == boundary {
            plan?.killsAt = nil
            crashed = true
            await world.tally.count(.appKill)
            await note("app killed at \(boundary.rawValue)", record)
            throw SimulatedCrash(at: boundary)
        }
    }

    // MARK: Faults

    /// The player gets the money back for `googlePlay` from Google Play (a user's refund,
    /// which revokes the item).
    private func void(_ googlePlay: GooglePlayPurchase, _ record: PurchaseRecord) async {
        guard (try? world.emulator.play.control(deviceId: id, token: googlePlay.purchaseToken, .refund)) != nil
        else { return }
        await world.emulator.play.sendPendingNotifications()
        await world.tally.count(.playVoid)
        await world.book.note("Google Play refunds it", about: googlePlay.orderId ?? record.id)
        await note("refunded at Google Play", record)
    }

    /// The buyer pays (or gives up on) every purchase Google holds pending on this phone.
    private func settlePending(paying: Bool) async {
        let pending = ((try? world.emulator.play.ledger()) ?? []).filter { $0.deviceId == id && $0.pending }
        for purchase in pending {
            _ = try? world.emulator.play.control(
                deviceId: id, token: purchase.purchaseToken, paying ? .complete : .cancel)
            await world.book.note("the buyer \(paying ? "pays" : "cancels")", about: purchase.orderId)
        }
        await world.emulator.play.sendPendingNotifications()
    }

    /// Google's paid, unacknowledged purchases on this phone: the server still owes them.
    private func unacknowledged() async -> [PlayLedgerEntry] {
        ((try? world.emulator.play.ledger()) ?? []).filter {
            $0.deviceId == id && $0.paid && !$0.refunded && !$0.acknowledged
        }
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
        guard let playStore = world.playStore else {
            crashed = true
            return
        }
        let transport = DeviceHTTPTransport(client: http)
        let store = PlayPhoneStoreClient(
            quick: PlayEmulatorStoreClient(
                baseURL: playStore, deviceId: id, pollInterval: .milliseconds(200), transport: transport),
            slow: PlayEmulatorStoreClient(
                baseURL: playStore, deviceId: id, paysSlowly: true, pollInterval: .milliseconds(200),
                transport: transport),
            payment: payment)
        let pipeline = world.pipeline(
            store: store, deviceId: id, index: index, appDirectory: appDirectory, keychainDirectory: keychainDirectory,
            storage: storage, http: http, weather: weather, playerId: players[0],
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
