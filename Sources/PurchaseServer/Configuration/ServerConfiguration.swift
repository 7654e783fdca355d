import AppStoreModel
import Foundation

/// Everything `storekeeper serve` needs to know, read from a JSON file and overridden by
/// `STOREKEEPER_*` environment variables (see ``ServerConfiguration/applyingEnvironment(_:)``).
///
/// Secrets (player-token secret, admin key, webhook secret, Apple API key) come only from
/// here, never from source, and ``description`` never prints them.
public struct ServerConfiguration: Codable, Sendable, CustomStringConvertible {
    /// The app's bundle id: signed data for any other app is refused.
    public var bundleId: String
    /// The app's Apple id, checked in notifications when set.
    public var appAppleId: Int64?
    /// What kind of deployment this is: `Production` flags sandbox purchases it accepts.
    public var deploymentEnvironment: AppStoreEnvironment
    /// The App Store environments whose purchases are delivered. Sandbox purchases in a
    /// production deployment (App Review's) need `Sandbox` here and are flagged.
    public var allowedEnvironments: [AppStoreEnvironment]
    /// The HS256 secret the game's login server signs player tokens with.
    public var playerTokenSecret: String?
    /// The bearer key admin endpoints require.
    public var adminKey: String?
    /// What the game sells and what each product grants.
    public var catalog: ProductCatalog
    /// How long an order can be paid for, in seconds.
    public var orderLifetimeSeconds: Double
    /// The largest request body accepted, in bytes (receipts are the largest bodies).
    public var maximumBodyBytes: Int
    /// How many purchase-flow events (`POST /v1/events`) the ledger keeps per player; older
    /// ones are deleted as new ones arrive.
    public var clientEventsPerPlayer: Int
    /// Apple's verifyReceipt as a second opinion or fallback for receipts.
    public var verifyReceipt: VerifyReceiptSettings
    /// The App Store Server API (notification history, Look Up Order ID, consumption).
    public var appStoreServerAPI: AppStoreServerAPISettings?
    /// Whether to answer `CONSUMPTION_REQUEST` with Send Consumption Information (for
    /// players who consented to it).
    public var answerConsumptionRequests: Bool
    /// What those answers state beyond the ledger's facts.
    public var consumption: ConsumptionSettings
    /// How often the reconciler pulls notification history, in seconds; 0 turns it off.
    public var reconcilerIntervalSeconds: Double
    /// How far back the reconciler's first run looks, in seconds (Apple keeps 180 days).
    public var reconcilerLookbackSeconds: Double
    /// How far before its checkpoint each reconciler pass starts reading again, in seconds,
    /// for notifications Apple adds to its history late: an hour by default. A pass reads
    /// this much history again every time, so a setup that compresses time (the
    /// simulation's passes every few seconds) shortens it with the interval.
    public var reconcilerOverlapSeconds: Double
    /// The default of ``reconcilerOverlapSeconds``.
    public static let defaultReconcilerOverlapSeconds: Double = 3_600
    /// Whether the server finishes at Apple (Finish Transaction) the transactions it
    /// delivered from a notification or the reconciler, which the app never reported
    /// (consumables, non-consumables and non-renewing subscriptions). `nil`, the default,
    /// means on when ``appStoreServerAPI`` is configured: see
    /// ``finishesTransactionsAtApple``.
    public var finishTransactionsAtApple: Bool?
    /// Where deliveries are posted for the game server, if anywhere.
    public var webhook: WebhookSettings?
    /// Certificate files (DER or PEM; a PEM file may hold several) whose certificates are
    /// trusted as roots besides Apple's, for signed transactions, receipts and
    /// notifications: a staging deployment's standalone App Store emulator. Refused with
    /// a `Production` ``deploymentEnvironment``.
    public var additionalRoots: [String]
    /// The online revocation check (OCSP) of the certificate that signed each JWS.
    public var revocationCheck: RevocationCheckSettings
    /// The support console's sign-in and limits.
    public var console: ConsoleSettings
    /// What a restore does with an entitlement another player holds.
    public var restoreTransferPolicy: RestoreTransferPolicy
    /// Google Play (package name, service account, pushes); `nil`, the default, leaves
    /// Play off.
    public var googlePlay: GooglePlaySettings?
    /// The bound on requests in flight and the connection limits and timeouts.
    public var load: LoadSettings

    /// A configuration with safe defaults: sample catalog, production deployment accepting
    /// production purchases only, no secrets (serving needs ``playerTokenSecret`` and
    /// ``adminKey``).
    public init(
        bundleId: String = "com.example.game",
        appAppleId: Int64? = nil,
        deploymentEnvironment: AppStoreEnvironment = .production,
        allowedEnvironments: [AppStoreEnvironment] = [.production],
        playerTokenSecret: String? = nil,
        adminKey: String? = nil,
        catalog: ProductCatalog = .sample,
        orderLifetimeSeconds: Double = 86_400,
        maximumBodyBytes: Int = 1 << 20,
        clientEventsPerPlayer: Int = 1_000,
        verifyReceipt: VerifyReceiptSettings = VerifyReceiptSettings(),
        appStoreServerAPI: AppStoreServerAPISettings? = nil,
        answerConsumptionRequests: Bool = false,
        consumption: ConsumptionSettings = ConsumptionSettings(),
        reconcilerIntervalSeconds: Double = 3_600,
        reconcilerLookbackSeconds: Double = 7 * 86_400,
        reconcilerOverlapSeconds: Double = defaultReconcilerOverlapSeconds,
        finishTransactionsAtApple: Bool? = nil,
        webhook: WebhookSettings? = nil,
        additionalRoots: [String] = [],
        revocationCheck: RevocationCheckSettings = RevocationCheckSettings(),
        console: ConsoleSettings = ConsoleSettings(),
        restoreTransferPolicy: RestoreTransferPolicy = .keepWithFirst,
        googlePlay: GooglePlaySettings? = nil,
        load: LoadSettings = LoadSettings()
    ) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.deploymentEnvironment = deploymentEnvironment
        self.allowedEnvironments = allowedEnvironments
        self.playerTokenSecret = playerTokenSecret
        self.adminKey = adminKey
        self.catalog = catalog
        self.orderLifetimeSeconds = orderLifetimeSeconds
        self.maximumBodyBytes = maximumBodyBytes
        self.clientEventsPerPlayer = clientEventsPerPlayer
        self.verifyReceipt = verifyReceipt
        self.appStoreServerAPI = appStoreServerAPI
        self.answerConsumptionRequests = answerConsumptionRequests
        self.consumption = consumption
        self.reconcilerIntervalSeconds = reconcilerIntervalSeconds
        self.reconcilerLookbackSeconds = reconcilerLookbackSeconds
        self.reconcilerOverlapSeconds = reconcilerOverlapSeconds
        self.finishTransactionsAtApple = finishTransactionsAtApple
        self.webhook = webhook
        self.additionalRoots = additionalRoots
        self.revocationCheck = revocationCheck
        self.console = console
        self.restoreTransferPolicy = restoreTransferPolicy
        self.googlePlay = googlePlay
        self.load = load
    }

    /// Decodes a configuration file; absent keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ServerConfiguration()
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId) ?? defaults.bundleId
        appAppleId = try container.decodeIfPresent(Int64.self, forKey: .appAppleId)
        deploymentEnvironment =
            try container.decodeIfPresent(AppStoreEnvironment.self, forKey: .deploymentEnvironment)
            ?? defaults.deploymentEnvironment
        allowedEnvironments =
            try container.decodeIfPresent([AppStoreEnvironment].self, forKey: .allowedEnvironments)
            ?? defaults.allowedEnvironments
        playerTokenSecret = try container.decodeIfPresent(String.self, forKey: .playerTokenSecret)
        adminKey = try container.decodeIfPresent(String.self, forKey: .adminKey)
        catalog = try container.decodeIfPresent(ProductCatalog.self, forKey: .catalog) ?? defaults.catalog
        orderLifetimeSeconds =
            try container.decodeIfPresent(Double.self, forKey: .orderLifetimeSeconds) ?? defaults.orderLifetimeSeconds
        maximumBodyBytes =
            try container.decodeIfPresent(Int.self, forKey: .maximumBodyBytes) ?? defaults.maximumBodyBytes
        clientEventsPerPlayer =
            try container.decodeIfPresent(Int.self, forKey: .clientEventsPerPlayer) ?? defaults.clientEventsPerPlayer
        verifyReceipt =
            try container.decodeIfPresent(VerifyReceiptSettings.self, forKey: .verifyReceipt) ?? defaults.verifyReceipt
        appStoreServerAPI = try container.decodeIfPresent(AppStoreServerAPISettings.self, forKey: .appStoreServerAPI)
        answerConsumptionRequests =
            try container.decodeIfPresent(Bool.self, forKey: .answerConsumptionRequests)
            ?? defaults.answerConsumptionRequests
        consumption =
            try container.decodeIfPresent(ConsumptionSettings.self, forKey: .consumption) ?? defaults.consumption
        reconcilerIntervalSeconds =
            try container.decodeIfPresent(Double.self, forKey: .reconcilerIntervalSeconds)
            ?? defaults.reconcilerIntervalSeconds
        reconcilerLookbackSeconds =
            try container.decodeIfPresent(Double.self, forKey: .reconcilerLookbackSeconds)
            ?? defaults.reconcilerLookbackSeconds
        reconcilerOverlapSeconds =
            try container.decodeIfPresent(Double.self, forKey: .reconcilerOverlapSeconds)
            ?? defaults.reconcilerOverlapSeconds
        finishTransactionsAtApple = try container.decodeIfPresent(Bool.self, forKey: .finishTransactionsAtApple)
        webhook = try container.decodeIfPresent(WebhookSettings.self, forKey: .webhook)
        additionalRoots = try container.decodeIfPresent([String].self, forKey: .additionalRoots) ?? []
        revocationCheck =
            try container.decodeIfPresent(RevocationCheckSettings.self, forKey: .revocationCheck)
            ?? defaults.revocationCheck
        console = try container.decodeIfPresent(ConsoleSettings.self, forKey: .console) ?? defaults.console
        restoreTransferPolicy =
            try container.decodeIfPresent(RestoreTransferPolicy.self, forKey: .restoreTransferPolicy)
            ?? defaults.restoreTransferPolicy
        googlePlay = try container.decodeIfPresent(GooglePlaySettings.self, forKey: .googlePlay)
        load = try container.decodeIfPresent(LoadSettings.self, forKey: .load) ?? defaults.load
    }

    /// Reads a JSON configuration file.
    public static func load(from url: URL) throws -> ServerConfiguration {
        let data = try Data(contentsOf: url)
        do {
            return try JSONDecoder().decode(ServerConfiguration.self, from: data)
        } catch {
            throw ConfigurationError("\(url.path) is not a valid configuration: \(error)")
        }
    }

    /// Problems that stop the server from starting, each a sentence.
    public func validationProblems() -> [String] {
        var problems = catalog.validationProblems()
        if bundleId.isEmpty { problems.append("bundleId is empty") }
        if allowedEnvironments.isEmpty { problems.append("allowedEnvironments is empty: nothing could be delivered") }
        let known: Set<AppStoreEnvironment> = [.production, .sandbox, .xcode, .localTesting]
        for environment in allowedEnvironments + [deploymentEnvironment] where !known.contains(environment) {
            problems.append(
                "\"\(environment.rawValue)\" is not an App Store environment (Production, Sandbox, Xcode, LocalTesting)"
            )
        }
        if (playerTokenSecret ?? "").utf8.count < 12 {
            problems.append("playerTokenSecret (STOREKEEPER_PLAYER_TOKEN_SECRET) must be set, at least 12 bytes")
        }
        if (adminKey ?? "").utf8.count < 12 {
            problems.append("adminKey (STOREKEEPER_ADMIN_KEY) must be set, at least 12 bytes")
        }
        if !(1_024...(64 << 20)).contains(maximumBodyBytes) {
            problems.append("maximumBodyBytes must be from 1024 to 67108864")
        }
        if !(1...1_000_000).contains(clientEventsPerPlayer) {
            problems.append("clientEventsPerPlayer must be from 1 to 1000000")
        }
        let year = 366.0 * 86_400
        if !(orderLifetimeSeconds > 0 && orderLifetimeSeconds <= year) {
            problems.append("orderLifetimeSeconds must be more than 0 and at most \(Int(year)) (a year)")
        }
        if !(reconcilerIntervalSeconds >= 0 && reconcilerIntervalSeconds <= year) {
            problems.append("reconcilerIntervalSeconds must be from 0 to \(Int(year)) (a year)")
        }
        if !(reconcilerLookbackSeconds >= 0 && reconcilerLookbackSeconds <= 180 * 86_400) {
            problems.append("reconcilerLookbackSeconds must be from 0 to 15552000 (Apple keeps 180 days)")
        }
        if !(reconcilerOverlapSeconds >= 0 && reconcilerOverlapSeconds <= 180 * 86_400) {
            problems.append("reconcilerOverlapSeconds must be from 0 to 15552000 (Apple keeps 180 days)")
        }
        if verifyReceipt.mode != .off, verifyReceipt.productionURL == nil || verifyReceipt.sandboxURL == nil {
            problems.append("verifyReceipt needs productionURL and sandboxURL")
        }
        if answerConsumptionRequests, appStoreServerAPI == nil {
            problems.append("answerConsumptionRequests needs appStoreServerAPI")
        }
        if finishTransactionsAtApple == true, appStoreServerAPI == nil {
            problems.append("finishTransactionsAtApple needs appStoreServerAPI")
        }
        if let webhook, (webhook.secret ?? "").isEmpty {
            problems.append("webhook \(webhook.url) needs a secret to sign bodies with")
        }
        if let webhook, !(webhook.timeoutSeconds > 0 && webhook.timeoutSeconds <= 3_600) {
            problems.append("webhook.timeoutSeconds must be more than 0 and at most 3600")
        }
        if !additionalRoots.isEmpty, deploymentEnvironment == .production {
            problems.append(
                "additionalRoots (STOREKEEPER_ADDITIONAL_ROOTS) cannot be used with deploymentEnvironment Production: "
                    + "a production server trusts Apple's roots only; set deploymentEnvironment to Sandbox for staging")
        }
        if additionalRoots.contains(where: \.isEmpty) { problems.append("additionalRoots holds an empty path") }
        problems += revocationCheck.validationProblems
        problems += console.validationProblems
        problems += googlePlay?.validationProblems ?? []
        problems += load.validationProblems
        return problems
    }

    /// A summary without secrets, for the start-up log.
    public var description: String {
        let environments = allowedEnvironments.map(\.rawValue).joined(separator: ",")
        return "bundleId=\(bundleId) deployment=\(deploymentEnvironment.rawValue) allowed=[\(environments)] "
            + "products=\(catalog.products.count) verifyReceipt=\(verifyReceipt.mode.rawValue) "
            + "serverAPI=\(appStoreServerAPI == nil ? "off" : "on") "
            + "reconciler=\(reconcilerIntervalSeconds > 0 && appStoreServerAPI != nil ? "every \(Int(reconcilerIntervalSeconds))s" : "off") "
            + "finishAtApple=\(finishesTransactionsAtApple ? "on" : "off") "
            + "webhook=\(webhook == nil ? "off" : "on")"
            + (additionalRoots.isEmpty ? "" : " additionalRoots=\(additionalRoots.count)")
            + " revocationCheck=\(revocationCheck.enabled ? "on" : "off")"
            + " googlePlay=\(googlePlay.map { "on(\($0.packageName))" } ?? "off")"
    }
}

/// A configuration the server cannot start with.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
