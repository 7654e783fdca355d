/// What a ``PurchasePipeline`` works with.
public struct PipelineConfiguration: Sendable {
    /// The App Store (StoreKit, or the emulator).
    public var store: any StoreClient
    /// Where orders are remembered across launches.
    public var journal: any PurchaseJournal
    /// The purchase server.
    public var server: PurchaseServerClient
    /// Tokens for the purchase server, per player.
    public var tokens: PlayerTokenProvider
    /// Now, and the waits between retries.
    public var clock: any PipelineClock
    /// The backoff between retries.
    public var retry: RetryPolicy
    /// A number in 0..<1 for the jitter of each wait.
    public var random: @Sendable () -> Double
    /// How many events one `/v1/events` request carries.
    public var eventBatchSize: Int
    /// Test hooks at each step boundary.
    public var hooks: PipelineHooks
    /// Where the last entitlements the server answered are kept for offline use (usually
    /// ``FileEntitlementCache/init(besideJournalAt:maximumPlayers:)``); `nil` keeps them in
    /// memory only, for as long as the pipeline lives.
    public var entitlementCache: FileEntitlementCache?

    /// Creates a configuration.
    public init(
        store: any StoreClient, journal: any PurchaseJournal, server: PurchaseServerClient,
        tokens: @escaping PlayerTokenProvider, clock: any PipelineClock = SystemPipelineClock(),
        retry: RetryPolicy = RetryPolicy(), random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        eventBatchSize: Int = 50, hooks: PipelineHooks = PipelineHooks(),
        entitlementCache: FileEntitlementCache? = nil
    ) {
        self.store = store
        self.journal = journal
        self.server = server
        self.tokens = tokens
        self.clock = clock
        self.retry = retry
        self.random = random
        self.eventBatchSize = eventBatchSize
        self.hooks = hooks
        self.entitlementCache = entitlementCache
    }
}
