import AppStoreEmulator
import AsyncHTTPClient
import Foundation
import PurchaseSDK
import PurchaseSDKEmulator
import PurchaseServer

/// One phone of a subscription player's household, running the game with the StoreKeeper
/// SDK (StoreKit 2): the subscriber's own phone (shared with a second game account), their
/// second phone on the same Apple account, or the family member's phone. It records who
/// pays for each order in the run's ``PaymentBook``; the faults that strike it are the
/// household's (Apple's side) and the network's.
actor SubscriberPhone {
    let id: String
    private let world: SimulationWorld
    private let index: Int
    private let weather: NetworkWeather
    private let storage: PhoneStorage
    /// The phone's own connections to the server.
    private let http: HTTPClient
    private var pipeline: PurchasePipeline?
    private var signedIn: String

    /// A phone `id` with `player` signed in, talking to server instance `index` (modulo
    /// their number); `salt` seeds its network's faults.
    init(id: String, index: Int, salt: UInt64, player: String, world: SimulationWorld) {
        self.id = id
        self.index = index
        self.world = world
        storage = PhoneStorage(label: id)
        http = world.phones.client()
        signedIn = player
        weather = NetworkWeather(
            dice: FaultDice(rates: world.rates, seed: world.seed, salt: 0x5B5C_0000 | salt), tally: world.tally)
    }

    /// Puts the phone on `appleAccount` and starts the app.
    func launch(appleAccount: String) async {
        _ = try? await world.emulator.updateDevice(id, settings: DeviceSettings(appleAccount: appleAccount))
        await start()
    }

    /// Buys `productId` through the SDK; the outcome, or `nil` when the app was not running.
    func purchase(_ productId: String) async -> PurchaseOutcome? {
        if pipeline == nil { await start() }
        guard let pipeline else { return nil }
        return try? await pipeline.purchase(productId: productId)
    }

    /// Restores purchases through the SDK (the store's current transactions, reported to
    /// the server); whether the call completed.
    @discardableResult
    func restore() async -> Bool {
        if pipeline == nil { await start() }
        guard let pipeline else { return false }
        return (try? await pipeline.restore()) != nil
    }

    /// Signs `player` in.
    func signIn(_ player: String) async {
        signedIn = player
        await pipeline?.signIn(playerId: player)
    }

    /// Waits (until `deadline`) until the app has nothing left to do: no order with work
    /// left, nothing unfinished in the store.
    func quiesce(deadline: ContinuousClock.Instant) async {
        await weather.calmDown()
        if pipeline == nil { await start() }
        while ContinuousClock.now < deadline {
            await pipeline?.waitUntilIdle()
            let unfinished = (try? await world.emulator.unfinishedTransactions(deviceId: id)) ?? []
            let owed = await pipeline?.pendingDeliveries().filter { $0.state != .pending } ?? []
            if unfinished.isEmpty && owed.isEmpty { return }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// What is still left on this phone: the store's unfinished transactions and the
    /// journal's orders with work left.
    func waits() async -> [DeviceWait] {
        var waits: [DeviceWait] = []
        for transaction in (try? await world.emulator.unfinishedTransactions(deviceId: id)) ?? [] {
            waits.append(
                DeviceWait(
                    transactionId: transaction.transactionId, token: nil,
                    wait: PurchaseWait(.unfinishedTransaction, "unfinished in the store on \(id)")))
        }
        waits += await DeviceWait.journal(of: pipeline, on: id)
        return waits
    }

    /// Stops the app.
    func shutDown() async {
        await pipeline?.stop()
        pipeline = nil
    }

    private var directory: URL { world.directory.appendingPathComponent(id) }

    private func start() async {
        let secret = world.playerSecret
        let book = world.book
        let device = id
        guard
            let store = try? world.storeClient(
                deviceId: id, generation: .storeKit2, promotions: PromotionBroadcaster(),
                dataDirectory: directory.appendingPathComponent("storekit"))
        else { return }
        let configuration = PipelineConfiguration(
            store: store,
            journal: RecordingPurchaseJournal(
                base: FilePurchaseJournal(url: directory.appendingPathComponent("journal")), device: id,
                timeline: world.timeline, storage: storage),
            server: PurchaseServerClient(
                baseURL: world.serverURLs[index % world.serverURLs.count],
                transport: SimulatedNetwork(base: DeviceHTTPTransport(client: http), weather: weather)),
            tokens: { PlayerTokenVerifier.issue(playerId: $0, secret: secret) },
            retry: world.retry,
            hooks: PipelineHooks { boundary, record in
                guard boundary == .beforeStorePurchase, let token = record.appAccountToken else { return }
                await book.recordPayment(
                    token: token, player: record.playerId, productId: record.productId, device: device)
            })
        let pipeline = PurchasePipeline(configuration: configuration, playerId: signedIn)
        if (try? await pipeline.start()) != nil { self.pipeline = pipeline }
    }
}
