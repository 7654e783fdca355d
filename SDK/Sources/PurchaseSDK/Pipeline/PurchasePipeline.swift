/// The purchase pipeline: one per app. It takes an order from the server, has the store
/// charge for it with the order's token, reports the transaction to the server and
/// finishes it only once the server acknowledged the delivery (or refused it for good),
/// journaling each state before the side effect that leaves it.
///
/// At ``start()`` it resumes everything the journal and the store's unfinished list hold;
/// while running it retries the server forever with backoff, follows the store's
/// transaction updates (Ask to Buy approvals) and holds promoted purchases until a player
/// is signed in. Every outcome, resumed ones included, goes to ``outcomes``. It also
/// restores the Apple account's purchases (``restore()``) and answers the player's
/// entitlements, cached for offline use (``entitlements(refresh:)``).
public actor PurchasePipeline {
    /// Every outcome: purchases made now, deliveries resumed after a restart, Ask to Buy
    /// approvals, promoted purchases, unknown transactions (renewals among them) and the
    /// transactions a ``restore()`` finished.
    public nonisolated let outcomes: AsyncStream<PurchaseOutcome>
    /// The purchase-flow event log, sent to `/v1/events`.
    public nonisolated let events: PurchaseEventLog

    let configuration: PipelineConfiguration
    let outcomeSink: AsyncStream<PurchaseOutcome>.Continuation
    var phase = Phase.idle
    var player: String?
    var records: [String: PurchaseRecord] = [:]
    var workers: [String: Task<PurchaseOutcome, any Error>] = [:]
    var listeners: [Task<Void, Never>] = []
    var transactionsBeingAccepted: Set<String> = []
    var heldPromotions: [PromotedPurchase] = []
    var heldTransactions: [StoreTransaction] = []
    /// The last entitlements the server answered, per player, as also kept in
    /// ``PipelineConfiguration/entitlementCache``.
    var cachedEntitlements: [String: CachedEntitlements] = [:]
    /// What the journal could not read at start-up.
    public private(set) var journalDamage: [JournalDamage] = []

    enum Phase {
        case idle
        case running
        /// Stopped by ``stop()`` or killed by a ``SimulatedCrash``: nothing more is written.
        case stopped
    }

    /// Creates a pipeline; `playerId` is the player signed in at launch, if any.
    public init(configuration: PipelineConfiguration, playerId: String? = nil) {
        self.configuration = configuration
        player = playerId
        (outcomes, outcomeSink) = AsyncStream.makeStream(of: PurchaseOutcome.self)
        events = PurchaseEventLog(
            server: configuration.server, tokens: configuration.tokens, batchSize: configuration.eventBatchSize)
    }

    /// Loads the journal, resumes every unsettled order and the store's unfinished
    /// transactions, and starts following the store. Returns what the journal held.
    @discardableResult
    public func start() async throws -> JournalContents {
        guard case .idle = phase else { throw PurchaseError.notRunning }
        let contents = try await configuration.journal.load()
        for record in contents.records { records[record.id] = record }
        journalDamage = contents.damage
        phase = .running
        for damage in contents.damage {
            await log(
                "journal_damaged", playerId: player, attributes: ["line": "\(damage.line)", "reason": damage.reason])
        }
        try await resume()
        listen()
        return contents
    }

    /// Stops following the store and retrying; the journal keeps everything unsettled for
    /// the next start.
    public func stop() {
        phase = .stopped
        for listener in listeners { listener.cancel() }
        for worker in workers.values { worker.cancel() }
        listeners.removeAll()
        outcomeSink.finish()
    }

    /// The player now signed in; promoted purchases and transactions held for want of a
    /// player go ahead for them.
    public func signIn(playerId: String) {
        player = playerId
        let promotions = heldPromotions
        let transactions = heldTransactions
        heldPromotions.removeAll()
        heldTransactions.removeAll()
        for promotion in promotions { startPromotedPurchase(promotion, playerId: playerId) }
        for transaction in transactions {
            Task { await self.accept(transaction) }
        }
    }

    /// No player is signed in any more; orders already made still go to their players.
    public func signOut() {
        player = nil
    }

    /// The player signed in now.
    public var signedInPlayer: String? { player }

    /// Buys `productId` for the signed-in player and returns when the purchase is settled:
    /// delivered and finished, pending (Ask to Buy), cancelled, or refused for good. While
    /// the server cannot be reached it keeps retrying; the delivery continues after a
    /// restart if the app dies meanwhile.
    public func purchase(productId: String, quantity: Int = 1) async throws -> PurchaseOutcome {
        try ensureRunning()
        guard let player else { throw PurchaseError.noPlayerSignedIn }
        let record = PurchaseRecord(
            playerId: player, productId: productId, quantity: quantity, origin: .game, now: configuration.clock.now)
        try await persist(record)
        await log("purchase_started", record)
        return try await launch(record.id).value
    }

    /// The orders paid for (or waiting for Ask to Buy) that the server has not delivered yet.
    public func pendingDeliveries() -> [PurchaseRecord] {
        records.values.filter(\.awaitsDelivery).sorted { $0.createdAt < $1.createdAt }
    }

    /// Every order the journal holds, oldest first.
    public func allRecords() -> [PurchaseRecord] {
        records.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Waits until no order is being worked on (the server answered, or the pipeline stopped).
    public func waitUntilIdle() async {
        while let worker = workers.values.first {
            _ = try? await worker.value
        }
    }

    func ensureRunning() throws {
        guard case .running = phase else { throw PurchaseError.notRunning }
    }

    /// Journals `record`, then remembers it.
    func persist(_ record: PurchaseRecord) async throws {
        try ensureRunning()
        var record = record
        record.updatedAt = configuration.clock.now
        try await configuration.journal.write(record)
        records[record.id] = record
    }

    /// Queues an event for the record's player.
    func log(_ name: String, _ record: PurchaseRecord, attributes: [String: String]? = nil) async {
        await log(
            name, playerId: record.playerId, orderId: record.orderId, transactionId: record.transactionId,
            attributes: attributes)
    }

    func log(
        _ name: String, playerId: String?, orderId: String? = nil, transactionId: String? = nil,
        attributes: [String: String]? = nil
    ) async {
        guard let playerId else { return }
        let event = PurchaseEvent(
            name: name, orderId: orderId, transactionId: transactionId, occurredAt: configuration.clock.now,
            attributes: attributes)
        await events.record(event, playerId: playerId)
    }
}
