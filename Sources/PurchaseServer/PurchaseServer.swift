import AppStoreAPI
import AppStoreModel
import AppStoreSigning
import AppStoreVerification
import Foundation
import GooglePlayAPI
import Hummingbird
import Ledger
import Logging
import PlayModel
import ServiceLifecycle

/// The game's purchase backend: orders, verification, exactly-once delivery, App Store
/// Server Notifications, the reconciler and the webhook outbox, on a ``LedgerStore``.
///
/// Add its routes to a Hummingbird router with ``addRoutes(to:)`` and run
/// ``backgroundServices`` beside the HTTP server. Any number of instances may share one
/// PostgreSQL database: exactly-once is decided by the database, the reconciler runs one
/// pass at a time under a lease in the ledger, and webhook claims expire.
public struct PurchaseServer: Sendable {
    /// The configuration it runs with.
    public let configuration: ServerConfiguration
    /// Its metrics.
    public let metrics: ServerMetrics
    /// The subjects of the roots trusted besides Apple's through
    /// ``ServerConfiguration/additionalRoots`` (a staging deployment), in file order; empty
    /// when only Apple's (and the caller's `trustRoots`) are trusted.
    public let additionalRootSubjects: [String]

    let store: any LedgerStore
    let authenticator: RequestAuthenticator
    let desk: PurchaseDesk
    let restoreDesk: RestoreDesk
    let intake: NotificationIntake
    let deliverer: PurchaseDeliverer
    let serverAPIClient: AppStoreServerAPIClient?
    /// Consumes and acknowledges Play purchases at Google; `nil` while Play is off.
    let playAcknowledger: PlayAcknowledger?
    /// Applies Google Play's voided purchases; `nil` while Play is off.
    let playVoids: PlayVoidSettler?
    /// Takes Google Play's pushed notifications; `nil` while Play is off.
    let playIntake: PlayNotificationIntake?
    let outboxWorker: OutboxWorker?
    let entitlementBackfill: EntitlementBackfill
    let reconcilerGate = PassGate()
    let reconcilerLeaseHolder = Reconciler.makeLeaseHolder()
    /// The length of history the reconciler's passes read between two checkpoints, learnt
    /// from one pass to the next.
    let reconcilerHistoryWindow = HistoryWindow()
    /// `/healthz`'s write check, made at most once a second.
    let writeProbe: LedgerWriteProbe
    /// The bound on player and notification requests in flight.
    let admission: AdmissionGate
    let logger: Logger

    /// Creates a server.
    ///
    /// - Parameters:
    ///   - configuration: what to sell, secrets, Apple endpoints; must pass
    ///     ``ServerConfiguration/validationProblems()``.
    ///   - store: the migrated ledger.
    ///   - trustRoots: the roots signed data must chain to. Apple's, always, except for an
    ///     explicit test setup (`serve --dev`, the tests) that trusts an emulator's roots.
    ///     The configuration's ``ServerConfiguration/additionalRoots`` are added to them
    ///     (with a warning in the log).
    ///   - httpTransport: how Apple (verifyReceipt, the Server API) and the webhook are reached.
    ///   - metrics: where to count.
    ///   - logger: where to log; receipts, tokens and keys are never logged.
    ///   - playServiceAccount: the Google Play service account to call Google with instead
    ///     of the configuration's (the dev stack's emulator makes its key when first asked);
    ///     `nil` reads ``GooglePlaySettings/serviceAccountFile`` or
    ///     ``GooglePlaySettings/serviceAccount``. Either is read on first use.
    public init(
        configuration: ServerConfiguration,
        store: any LedgerStore,
        trustRoots: TrustRoots = .apple,
        httpTransport: any HTTPTransport = AsyncHTTPClientTransport(),
        metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "storekeeper"),
        playServiceAccount: (@Sendable () throws -> ServiceAccountKey)? = nil
    ) throws {
        let problems = configuration.validationProblems()
        guard problems.isEmpty else { throw ConfigurationError(problems.joined(separator: "; ")) }
        let additionalRoots = try configuration.additionalRootCertificates()
        let trustRoots = TrustRoots(trustRoots.certificates + additionalRoots)
        additionalRootSubjects = additionalRoots.map { String(describing: $0.subject) }
        if !additionalRootSubjects.isEmpty {
            logger.warning(
                "trusting roots besides Apple's (additionalRoots): signed data from another App Store is accepted; never in production",
                metadata: ["roots": .array(additionalRootSubjects.map { .string($0) })])
        }
        self.configuration = configuration
        self.store = store
        self.writeProbe = LedgerWriteProbe(store: store)
        self.admission = AdmissionGate(limit: configuration.load.maximumRequestsInFlight)
        self.metrics = metrics
        self.logger = logger
        self.authenticator = RequestAuthenticator(
            playerTokenSecret: configuration.playerTokenSecret ?? "", adminKey: configuration.adminKey ?? "")

        let allowed = Set(configuration.allowedEnvironments)
        let policy = VerificationPolicy(bundleId: configuration.bundleId, environments: allowed)
        let revocationCheck = configuration.revocationCheck.check(transport: httpTransport)
        let jwsVerifier = JWSVerifier(roots: trustRoots, policy: policy, revocationCheck: revocationCheck)
        let serverAPIClient = try configuration.appStoreServerAPI.map { settings in
            AppStoreServerAPIClient(
                baseURL: settings.baseURL,
                key: try AppStoreServerAPIKey(
                    issuerId: settings.issuerId, keyId: settings.keyId, bundleId: configuration.bundleId,
                    privateKeyPEM: settings.resolvedPEM()),
                transport: httpTransport)
        }
        self.serverAPIClient = serverAPIClient
        let verifyReceipt = configuration.verifyReceipt
        let verifier = TransactionVerifier(
            jwsVerifier: jwsVerifier,
            receiptVerifier: ReceiptVerifier(roots: trustRoots, policy: policy),
            verifyReceiptClient: verifyReceipt.mode == .off
                ? nil
                : VerifyReceiptClient(
                    productionBaseURL: verifyReceipt.productionURL ?? VerifyReceiptClient.defaultProductionBaseURL,
                    sandboxBaseURL: verifyReceipt.sandboxURL ?? VerifyReceiptClient.defaultSandboxBaseURL,
                    sharedSecret: verifyReceipt.sharedSecret, transport: httpTransport),
            serverAPIClient: serverAPIClient,
            verifyReceiptMode: verifyReceipt.mode,
            bundleId: configuration.bundleId,
            allowedEnvironments: allowed)
        let finisher =
            configuration.finishesTransactionsAtApple
            ? serverAPIClient.map {
                TransactionFinisher(
                    client: $0, store: store, catalog: configuration.catalog, metrics: metrics, logger: logger)
            } : nil
        let deliverer = PurchaseDeliverer(
            store: store, catalog: configuration.catalog, deploymentEnvironment: configuration.deploymentEnvironment,
            finisher: finisher, metrics: metrics, logger: logger)
        self.deliverer = deliverer
        let play = configuration.googlePlay.map { settings in
            let client = Self.playClient(settings, serviceAccount: playServiceAccount, transport: httpTransport)
            return (
                verifier: PlayPurchaseVerifier(client: client, allowedEnvironments: allowed),
                acknowledger: PlayAcknowledger(
                    client: client, store: store, catalog: configuration.catalog, metrics: metrics, logger: logger),
                voids: PlayVoidSettler(client: client, store: store, logger: logger)
            )
        }
        self.playAcknowledger = play?.acknowledger
        self.playVoids = play?.voids
        if let settings = configuration.googlePlay, let play {
            self.playIntake = PlayNotificationIntake(
                authenticator: Self.pushAuthenticator(settings, transport: httpTransport),
                packageName: settings.packageName, verifier: play.verifier, acknowledger: play.acknowledger,
                deliverer: deliverer,
                voids: play.voids, store: store, logger: logger)
        } else {
            self.playIntake = nil
        }
        self.desk = PurchaseDesk(
            store: store, catalog: configuration.catalog, orderLifetime: configuration.orderLifetimeSeconds,
            verifier: verifier, deliverer: deliverer,
            play: play.map { (verifier: $0.verifier, acknowledger: $0.acknowledger) })
        self.restoreDesk = RestoreDesk(
            store: store, catalog: configuration.catalog, verifier: verifier, deliverer: deliverer,
            policy: configuration.restoreTransferPolicy,
            play: play.map { (verifier: $0.verifier, acknowledger: $0.acknowledger) })

        let notificationPolicy = VerificationPolicy(
            bundleId: configuration.bundleId, environments: allowed, appAppleId: configuration.appAppleId)
        self.intake = NotificationIntake(
            store: store,
            verifier: JWSVerifier(roots: trustRoots, policy: notificationPolicy, revocationCheck: revocationCheck),
            deliverer: deliverer,
            consumption: configuration.answerConsumptionRequests
                ? serverAPIClient.map {
                    ConsumptionResponder(client: $0, store: store, settings: configuration.consumption)
                } : nil,
            metrics: metrics, logger: logger)
        self.entitlementBackfill = EntitlementBackfill(store: store, catalog: configuration.catalog, logger: logger)
        self.outboxWorker = configuration.webhook.map { webhook in
            OutboxWorker(
                store: store, webhook: webhook, transport: httpTransport, metrics: metrics, logger: logger)
        }
    }

    /// The Play Developer API client for `settings`, its token source reading
    /// `serviceAccount` (or the settings' key) on first use: a key that cannot be read
    /// answers reports `play_unavailable` (``ServerConfiguration/startupProblems()``, which
    /// `serve` checks, refuses to start with it).
    private static func playClient(
        _ settings: GooglePlaySettings, serviceAccount: (@Sendable () throws -> ServiceAccountKey)?,
        transport: any HTTPTransport
    ) -> GooglePlayDeveloperAPIClient {
        let account = serviceAccount ?? { try settings.resolvedServiceAccount() }
        return GooglePlayDeveloperAPIClient(
            baseURL: settings.apiBaseURL, packageName: settings.packageName,
            tokens: GoogleAccessTokenSource(serviceAccount: account, transport: transport), transport: transport,
            timeout: settings.timeoutSeconds)
    }

    /// The check of Google's push tokens, when the settings name the audience and the
    /// service account pushes must carry.
    private static func pushAuthenticator(
        _ settings: GooglePlaySettings, transport: any HTTPTransport
    ) -> GooglePushAuthenticator? {
        guard let audience = settings.pushAudience, let email = settings.pushEmail else { return nil }
        return GooglePushAuthenticator(
            keys: GooglePushKeys(url: settings.certsURL, transport: transport), audience: audience, email: email)
    }

    /// The player and notification requests the server works on now; at
    /// ``LoadSettings/maximumRequestsInFlight`` the next one is shed.
    public var requestsInFlight: Int { admission.inFlight }

    /// The reconciler, when the App Store Server API or Google Play is configured.
    public var reconciler: Reconciler? {
        guard serverAPIClient != nil || playAcknowledger != nil else { return nil }
        return Reconciler(
            client: serverAPIClient, intake: intake, store: store, lookback: configuration.reconcilerLookbackSeconds,
            holder: reconcilerLeaseHolder, gate: reconcilerGate, playAcknowledger: playAcknowledger,
            playVoids: playVoids, overlap: configuration.reconcilerOverlapSeconds,
            historyWindow: reconcilerHistoryWindow)
    }

    /// Posts every due webhook message once (the outbox worker's pass); returns how many
    /// the game server acknowledged, or 0 without a webhook.
    public func postDueDeliveries(now: Date = Date()) async throws -> Int {
        try await outboxWorker?.runOnce(now: now).acknowledged ?? 0
    }

    /// Creates the entitlements of purchases delivered before the ledger kept them
    /// (``EntitlementBackfill``); how many it created. The background services run it at
    /// start; once it finished, it does nothing.
    public func backfillEntitlements() async throws -> Int {
        try await entitlementBackfill.run()
    }

    /// The jobs to run beside the HTTP server: the entitlement backfill (once, retried
    /// until it finishes), the reconciler on its schedule (when the Server API is
    /// configured) and the outbox worker (when a webhook is).
    public var backgroundServices: [any Service] {
        let backfill = entitlementBackfill
        var services: [any Service] = [
            PeriodicWork(name: "entitlement backfill", interval: .seconds(60), logger: logger) {
                _ = try await backfill.run()
                return false
            }
        ]
        if let reconciler, configuration.reconcilerIntervalSeconds > 0 {
            let logger = logger
            services.append(
                PeriodicWork(
                    name: "reconciler", interval: .seconds(configuration.reconcilerIntervalSeconds), logger: logger
                ) {
                    do {
                        let report = try await reconciler.run()
                        if report.processed > 0 {
                            logger.notice(
                                "reconciler processed missed notifications", metadata: ["count": "\(report.processed)"])
                        }
                        // History left after the budget: the next pass reads on at once.
                        return !report.historyComplete
                    } catch let error as ReconcilerLeaseError {
                        logger.notice("reconciler pass \(error)")
                    }
                    return false
                })
        }
        if let outboxWorker {
            services.append(
                PeriodicWork(name: "outbox", interval: .seconds(1), logger: logger) {
                    try await outboxWorker.runOnce().full
                })
        }
        return services
    }
}
