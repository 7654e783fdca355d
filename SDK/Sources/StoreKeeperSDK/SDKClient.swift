import Foundation
import PurchaseSDK
import PurchaseSDKEmulator

/// What an `sk_client *` stands for: one ``PurchasePipeline`` and the queue of events the
/// game polls. It holds no purchase logic: each method is one call to the pipeline (or the
/// store, for `products`), its answer turned into JSON. It also tells the game, unasked, the
/// outcomes it did not ask for (`purchase` events) and the entitlements' changes
/// (`entitlementsChanged`, ``EntitlementWatch``).
final class SDKClient: Sendable {
    /// Where answers and updates wait for the game.
    let queue: EventQueue
    private let pipeline: PurchasePipeline
    private let store: any StoreClient
    private let tokens: TokenBook
    private let watch: EntitlementWatch
    private let refresher: EntitlementRefresher

    /// Opens a client as `config_json` says; throws an ``ABIError`` (`invalid_config`,
    /// `store_unavailable`, `data_directory`) when it cannot.
    init(configuration: ClientConfiguration) throws {
        let store = try Self.store(for: configuration)
        let directory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ABIError(code: "data_directory", message: "cannot create \(directory.path): \(error)")
        }
        let journalURL = directory.appendingPathComponent("purchases.journal")
        let tokens = TokenBook()
        var retry = RetryPolicy()
        if let initial = configuration.retryInitialMilliseconds { retry.initialDelay = .milliseconds(max(1, initial)) }
        if let maximum = configuration.retryMaximumMilliseconds { retry.maximumDelay = .milliseconds(max(1, maximum)) }
        let pipeline = PurchasePipeline(
            configuration: PipelineConfiguration(
                store: store, journal: FilePurchaseJournal(url: journalURL),
                server: PurchaseServerClient(baseURL: configuration.serverURL),
                tokens: { playerId in try await tokens.token(for: playerId) }, retry: retry,
                entitlementCache: FileEntitlementCache(besideJournalAt: journalURL)))
        let queue = EventQueue(capacity: configuration.eventQueueCapacity)
        let watch = EntitlementWatch()
        self.pipeline = pipeline
        self.store = store
        self.tokens = tokens
        self.queue = queue
        self.watch = watch
        refresher = EntitlementRefresher {
            await watch.report(await pipeline.entitlements(refresh: true), to: queue)
        }
    }

    private static func store(for configuration: ClientConfiguration) throws -> any StoreClient {
        switch configuration.store {
        case .emulator, .playEmulator:
            guard let emulatorURL = configuration.emulatorURL, let deviceId = configuration.deviceId, !deviceId.isEmpty
            else {
                throw ABIError(
                    code: "invalid_config",
                    message: "store \"\(configuration.store.rawValue)\" needs emulatorURL and deviceId")
            }
            return configuration.store == .emulator
                ? EmulatorStoreClient(baseURL: emulatorURL, deviceId: deviceId)
                : PlayEmulatorStoreClient(baseURL: emulatorURL, deviceId: deviceId)
        case .storekit2: return try StoreKitStores.client(.storeKit2)
        case .storekit1: return try StoreKitStores.client(.storeKit1)
        }
    }

    /// Runs `method` with `params` (a JSON object's bytes) and queues its answer under `id`,
    /// whose place in the queue is reserved.
    func call(id: Int64, method: String, params: Data) {
        Task {
            do {
                queue.answer(try await run(id: id, method: method, params: params))
            } catch {
                queue.answer(ABIJSON.text(ABIJSON.Failure(id: id, error: ABIError(error))))
            }
        }
    }

    /// Stops the pipeline (the journal keeps what is unsettled) and drops every waiting event.
    func close() async {
        queue.close()
        refresher.stop()
        await pipeline.stop()
    }

    private func run(id: Int64, method: String, params: Data) async throws -> String {
        switch method {
        case "signIn":
            let params = try ABIJSON.decode(CallParameters.SignIn.self, from: params)
            await tokens.keep(params.token, for: params.playerId)
            await pipeline.signIn(playerId: params.playerId)
            await watch.baseline(await pipeline.entitlements(refresh: false))
            return ABIJSON.text(ABIJSON.Answer(id: id, result: ["playerId": params.playerId]))
        case "signOut":
            await pipeline.signOut()
            return ABIJSON.text(ABIJSON.Answer(id: id, result: ABIJSON.Empty()))
        case "start":
            let contents = try await pipeline.start()
            await watch.baseline(await pipeline.entitlements(refresh: false))
            follow(resumed: Set(contents.records.map(\.id)))
            let pending = await pipeline.pendingDeliveries()
            return ABIJSON.text(
                ABIJSON.Answer(
                    id: id,
                    result: [
                        "journalRecords": contents.records.count, "journalDamage": contents.damage.count,
                        "pendingDeliveries": pending.count,
                    ]))
        case "products":
            let params = try ABIJSON.decode(CallParameters.Products.self, from: params)
            let products: [StoreProduct]
            do {
                products = try await store.products(ids: params.productIds)
            } catch {
                throw ABIError(code: "store_error", message: "the store could not list products: \(error)")
            }
            return ABIJSON.text(ABIJSON.Answer(id: id, result: ["products": products]))
        case "purchase":
            let params = try ABIJSON.decode(CallParameters.Purchase.self, from: params)
            let outcome = try await pipeline.purchase(productId: params.productId, quantity: params.quantity ?? 1)
            return ABIJSON.text(ABIJSON.Answer(id: id, result: PurchaseJSON(outcome)))
        case "restore":
            let outcome = try await pipeline.restore()
            await tell(outcome.entitlements)
            return ABIJSON.text(ABIJSON.Answer(id: id, result: RestoreJSON(outcome)))
        case "entitlements":
            let params = try ABIJSON.decode(CallParameters.Entitlements.self, from: params)
            let snapshot = await pipeline.entitlements(refresh: params.refresh ?? true)
            await tell(snapshot)
            return ABIJSON.text(ABIJSON.Answer(id: id, result: EntitlementsJSON(snapshot)))
        case "pendingDeliveries":
            let records = await pipeline.pendingDeliveries().map(RecordJSON.init)
            return ABIJSON.text(ABIJSON.Answer(id: id, result: ["purchases": records]))
        case "events":
            let sent = await pipeline.events.flush()
            let unsent = await pipeline.events.queued
            return ABIJSON.text(ABIJSON.Answer(id: id, result: EventsJSON(sent: sent, unsent: unsent)))
        default:
            throw ABIError(code: "unknown_method", message: "no method \(method.debugDescription)")
        }
    }

    /// Posts an `entitlementsChanged` event when `snapshot` changes the entitlements the
    /// client knew; before the answer that carries `snapshot`, if any.
    private func tell(_ snapshot: EntitlementSnapshot) async {
        await watch.report(snapshot, to: queue)
    }

    /// Posts every outcome the pipeline streams as a `purchase` event, except the first
    /// outcome of each order a `purchase` call of this client made: that call's answer
    /// carries it. Orders the journal held at start (`resumed`) and orders that did not come
    /// from the game (promoted, store, restore) are always posted. After each delivery it
    /// refreshes the entitlements, which the delivery may have changed (``EntitlementRefresher``).
    private func follow(resumed: Set<String>) {
        let outcomes = pipeline.outcomes
        let queue = queue
        let refresher = refresher
        Task {
            var answeredByCall: Set<String> = []
            for await outcome in outcomes {
                let record = outcome.record
                let answered =
                    record.origin == .game && !resumed.contains(record.id)
                    && answeredByCall.insert(record.id).inserted
                if !answered { queue.post(ABIJSON.text(ABIJSON.PurchaseEvent(purchase: PurchaseJSON(outcome)))) }
                if case .delivered = outcome { refresher.request() }
            }
        }
    }
}
