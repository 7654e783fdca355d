import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import AsyncHTTPClient
import Foundation
import PlayEmulator

/// An offline App Store: it sells the catalog's products to simulated devices, signs
/// transactions, receipts and notifications with real cryptography under its own CA,
/// and answers Apple's verifyReceipt and App Store Server API.
///
/// Use it in-process (tests, `storekeeper serve --dev`) or over HTTP through
/// ``addRoutes(to:)``. State lives in the configuration's data directory; a restart with
/// the same directory keeps devices, transactions, notifications and the CA.
public actor AppStoreEmulator {
    /// The configuration it runs with.
    public nonisolated let configuration: EmulatorConfiguration
    /// Its CA chains and the Server API key it accepts.
    public nonisolated let identity: EmulatorIdentity

    /// Checks Server API bearer tokens against ``identity``'s API key.
    nonisolated let serverAPITokenVerifier: AppStoreServerAPITokenVerifier
    /// The catalog: the configuration's, with the products added since
    /// (``addProducts(_:)``).
    nonisolated let catalogBox: CatalogBox
    /// The Google Play side: the same catalog's one-time products and auto-renewing
    /// subscriptions, sold to Play devices and answered for through the Android Publisher
    /// API (``addRoutes(to:)`` serves it); its notifications are pushed by a notification
    /// dispatcher of their own (``waitForPlayNotificationDeliveries()``).
    public nonisolated let play: PlayEmulator

    var state: EmulatorState
    var faultInjector = FaultInjector()
    let journal: EmulatorJournal
    let dispatcher: NotificationDispatcher
    /// Delivers the Play side's pushes.
    let playPushes: PlayPushDispatch
    let jwsSigner: JWSSigner
    let receiptSigner: ReceiptSigner
    let receiptVerifier: ReceiptVerifier
    /// The renewal clock, while it runs.
    var subscriptionClock: Task<Void, Never>?

    /// Starts an emulator on `configuration.dataDirectory`, creating its CA and state
    /// on first use, and resumes delivering notifications that were not delivered.
    ///
    /// Notifications go through `transport` when one is given; otherwise, like Google Play's
    /// pushes, they are posted with `httpClient` (borrowed, never shut down here).
    ///
    /// - Throws: ``EmulatorError`` `invalid_configuration` when the configuration's
    ///   `timeScale` is not finite or is negative, its `subscriptionTimeScale` is not
    ///   finite, positive and at most 1, or its catalog holds a product it cannot sell (an
    ///   empty product id, a negative price, a group level outside 1…1000, or a
    ///   `subscriptionPeriodSeconds` or `gracePeriodSeconds` that is not positive or longer
    ///   than 10 years); the error of reading or creating the data directory's files.
    public init(
        configuration: EmulatorConfiguration, transport: (any NotificationTransport)? = nil,
        httpClient: HTTPClient = .shared
    ) async throws {
        guard configuration.timeScale.isFinite, configuration.timeScale >= 0 else {
            throw EmulatorError(
                "invalid_configuration", "timeScale must be finite and not negative, not \(configuration.timeScale)")
        }
        guard configuration.subscriptionTimeScale.isFinite, configuration.subscriptionTimeScale > 0,
            configuration.subscriptionTimeScale <= 1
        else {
            throw EmulatorError(
                "invalid_configuration",
                "subscriptionTimeScale must be finite, positive and at most 1, not \(configuration.subscriptionTimeScale)"
            )
        }
        if let problem = configuration.catalog.products.lazy.compactMap(\.problem).first {
            throw EmulatorError("invalid_configuration", problem)
        }
        let directory = configuration.dataDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.configuration = configuration
        let catalogBox = CatalogBox(configuration.catalog)
        self.catalogBox = catalogBox
        let play = try PlayEmulator(
            packageName: configuration.bundleId, dataDirectory: directory, baseURL: configuration.baseURL,
            periodScale: configuration.subscriptionTimeScale, now: configuration.playClock
        ) { productId in
            catalogBox.current.product(productId).map {
                PlayProduct(
                    productId: $0.productId, isOneTime: $0.type == .consumable || $0.type == .nonConsumable,
                    subscriptionPeriod: $0.type == .autoRenewable ? TimeInterval($0.periodSeconds) : nil,
                    gracePeriod: $0.type == .autoRenewable ? $0.gracePeriodSeconds.map(TimeInterval.init) : nil)
            }
        }
        self.play = play
        self.identity = try EmulatorIdentity.loadOrCreate(in: directory, bundleId: configuration.bundleId)
        self.jwsSigner = try JWSSigner(chain: identity.jwsChain)
        self.receiptSigner = try ReceiptSigner(chain: identity.receiptChain)
        self.receiptVerifier = ReceiptVerifier(roots: TrustRoots([identity.receiptChain.root]))
        self.serverAPITokenVerifier = AppStoreServerAPITokenVerifier(
            key: .init(
                keyId: identity.apiKey.keyId,
                issuerId: identity.apiKey.issuerId,
                bundleId: identity.apiKey.bundleId,
                publicKey: identity.apiKey.publicKey
            )
        )

        var state = EmulatorState()
        self.journal = try EmulatorJournal.open(at: directory.appendingPathComponent("state.jsonl")) { records in
            for record in records { state.apply(record) }
            return state.records
        }
        self.state = state

        playPushes = PlayPushDispatch(for: play, timeScale: configuration.timeScale, client: httpClient)
        let recorder = AttemptRecorder()
        self.dispatcher = NotificationDispatcher(
            url: configuration.notificationURL,
            transport: transport
                ?? HTTPNotificationTransport(
                    client: httpClient,
                    timeout: HTTPNotificationTransport.timeout(forTimeScale: configuration.timeScale)),
            timeScale: configuration.timeScale,
            faults: NotificationFaults(),
            onAttempt: { attempt in await recorder.forward(attempt) },
            beforeSending: { [journal] in try await journal.waitUntilDurable(journal.lastAppend) }
        )
        await recorder.attach(self)
        play.attach(sink: playPushes)
        do {
            try await play.setPushConfiguration(configuration.playPush)
        } catch {
            throw EmulatorError("invalid_configuration", "playPush: \(error.message)")
        }
        await play.sendPendingNotifications()
        for notification in state.notificationOrder.compactMap({ state.notifications[$0] })
        where !notification.isDelivered {
            let lastAttempt = notification.attempts.last.map {
                Date(timeIntervalSince1970: Double($0.attemptDate) / 1000)
            }
            Task { [dispatcher] in
                await dispatcher.submit(
                    uuid: notification.notificationUUID,
                    signedPayload: notification.signedPayload,
                    attemptsMade: notification.attempts.count,
                    lastAttempt: lastAttempt
                )
            }
        }
        if configuration.runsSubscriptionClock { subscriptionClock = SubscriptionClock.start(self) }
    }

    /// Stops the renewal clock and delivering notifications.
    public func shutdown() async {
        subscriptionClock?.cancel()
        subscriptionClock = nil
        await dispatcher.shutdown()
        await playPushes.dispatcher.shutdown()
    }

    /// The trust roots for what this emulator signs: JWS and receipts.
    public nonisolated var trustRoots: TrustRoots {
        TrustRoots([identity.jwsChain.root, identity.receiptChain.root])
    }

    // MARK: Faults

    /// Replaces the injected faults.
    public func setFaults(_ faults: EmulatorFaults) async {
        faultInjector.update(faults)
        var notificationFaults = faults.notifications ?? NotificationFaults()
        if notificationFaults.seed == 0, let seed = faults.seed { notificationFaults.seed = seed }
        await dispatcher.updateFaults(notificationFaults)
        await playPushes.dispatcher.updateFaults(notificationFaults)
    }

    /// The faults in force.
    public var faults: EmulatorFaults { faultInjector.faults }

    /// Operation name → how many of its requests the faults failed (outage or error) since
    /// the emulator started.
    public var injectedFaults: [String: Int] { faultInjector.injected }

    /// Points notifications at another URL (a server that started after the emulator).
    public func setNotificationURL(_ url: URL?) async {
        await dispatcher.setURL(url)
    }

    /// Waits until no notification delivery is in flight or scheduled.
    public func waitForNotificationDeliveries() async {
        await dispatcher.waitUntilIdle()
    }

    /// Hands the Play side's published notifications to its push dispatcher and waits until
    /// no push is in flight or scheduled.
    public func waitForPlayNotificationDeliveries() async {
        await play.sendPendingNotifications()
        await playPushes.dispatcher.waitUntilIdle()
    }

    // MARK: State helpers

    /// Appends records to the journal (one `write`) and applies them to the state.
    ///
    /// It does not wait for the disk, so a flow never suspends between its reads and its
    /// commit: the records are written (a killed process keeps them) but may not be synced
    /// yet. What leaves the process waits for them instead: every HTTP answer waits for what
    /// was journaled before it (``respond(_:)``), and a notification's first attempt waits
    /// for the journal (the dispatcher's `beforeSending`), so nothing tells of state that a
    /// power cut could still take back. An in-process caller that must not read unsynced
    /// state calls ``waitForJournal()``.
    func commit(_ records: [EmulatorRecord]) throws {
        try journal.append(records)
        for record in records { state.apply(record) }
    }

    /// Returns once everything the emulator has journaled so far is on disk.
    ///
    /// - Throws: The error of the `fsync` that was to cover it.
    public nonisolated func waitForJournal() async throws {
        try await journal.waitUntilDurable(journal.lastAppend)
    }

    func transaction(_ transactionId: String) throws(EmulatorError) -> EmulatedTransaction {
        guard let transaction = state.transactions[transactionId] else { throw .unknownTransaction(transactionId) }
        return transaction
    }

    func signedTransaction(_ transaction: EmulatedTransaction) throws -> String {
        try jwsSigner.sign(transaction.payload(bundleId: configuration.bundleId, signedAt: Date()))
    }

    /// Keeps a delivery attempt in the notification's history.
    func record(_ attempt: NotificationSendAttempt) {
        guard state.notifications[attempt.notificationUUID] != nil else { return }
        let kept = EmulatedNotification.Attempt(
            attemptDate: Int64(attempt.attemptDate.timeIntervalSince1970 * 1000),
            sendAttemptResult: attempt.sendAttemptResult.rawValue
        )
        try? commit([.notificationAttempt(notificationUUID: attempt.notificationUUID, attempt: kept)])
    }
}

/// Lets the dispatcher, created before the emulator finishes initializing, report
/// attempts back to it without keeping it alive.
private actor AttemptRecorder {
    private weak var emulator: AppStoreEmulator?

    func attach(_ emulator: AppStoreEmulator) {
        self.emulator = emulator
    }

    func forward(_ attempt: NotificationSendAttempt) async {
        await emulator?.record(attempt)
    }
}
