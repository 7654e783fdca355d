import Foundation
import PlayEmulator

/// How an emulator instance is set up.
public struct EmulatorConfiguration: Sendable {
    /// Where the CA, the API key and the state journal live.
    public var dataDirectory: URL
    /// The app the emulated store sells for.
    public var bundleId: String
    /// The app's Apple id, as in notifications.
    public var appAppleId: Int64
    /// What the store sells.
    public var catalog: EmulatorCatalog
    /// Where App Store Server Notifications V2 are POSTed; `nil` sends none (they are
    /// still kept for notification history).
    public var notificationURL: URL?
    /// The app-specific shared secret verifyReceipt checks when a request gives one.
    public var sharedSecret: String?
    /// Multiplies Apple's notification retry schedule (1, 12, 24, 48, 72 hours); finite and
    /// not negative, or ``AppStoreEmulator`` refuses to start.
    public var timeScale: Double
    /// Multiplies subscription periods, grace periods, billing retry and the Play side's
    /// three days to acknowledge a purchase (1/8640 makes a 30-day month last 5 minutes,
    /// like Apple's sandbox); finite and positive, or
    /// ``AppStoreEmulator`` refuses to start.
    public var subscriptionTimeScale: Double = 1
    /// Whether the emulator's renewal clock runs by itself (renewing, failing and expiring
    /// subscriptions as their periods end). Off, only
    /// ``AppStoreEmulator/processDueSubscriptions(now:)`` moves them.
    public var runsSubscriptionClock: Bool = true
    /// The base URL clients reach the emulator at (`http://127.0.0.1:9090`), from which it
    /// builds the absolute URLs it hands out (the Play service account's `token_uri`);
    /// `nil` builds them from each request's `Host` header.
    public var baseURL: URL?
    /// Where and how the Play side pushes Real-time developer notifications; nowhere by
    /// default.
    public var playPush: PlayPushConfiguration
    /// What "now" is for the Google Play side (``PlayEmulator/now``): purchase and order
    /// times, subscription periods and their renewals and expiry, Google's three days to
    /// acknowledge a purchase and the times of voided purchases. The real clock by default
    /// (`storekeeper emulator` and `serve --dev` keep real time); a test passes one it moves,
    /// and then nothing on the Play side happens until the test moves it. The App Store side,
    /// the service account's access tokens and the pushes' OIDC tokens keep real time.
    public var playClock: @Sendable () -> Date

    /// Creates a configuration; the sample catalog and no notification URL by default.
    public init(
        dataDirectory: URL,
        bundleId: String = "com.example.game",
        appAppleId: Int64 = 1_234_567_890,
        catalog: EmulatorCatalog = .sample,
        notificationURL: URL? = nil,
        sharedSecret: String? = nil,
        timeScale: Double = 1,
        subscriptionTimeScale: Double = 1,
        runsSubscriptionClock: Bool = true,
        baseURL: URL? = nil,
        playPush: PlayPushConfiguration = PlayPushConfiguration(),
        playClock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.dataDirectory = dataDirectory
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.catalog = catalog
        self.notificationURL = notificationURL
        self.sharedSecret = sharedSecret
        self.timeScale = timeScale
        self.subscriptionTimeScale = subscriptionTimeScale
        self.runsSubscriptionClock = runsSubscriptionClock
        self.baseURL = baseURL
        self.playPush = playPush
        self.playClock = playClock
    }
}
