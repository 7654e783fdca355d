import PurchaseServer

/// One pass of the server's reconciler over Apple's notification history, as the run made it.
public struct ReconcilerPass: Codable, Hashable, Sendable {
    /// Seconds since the run started, when the pass began.
    public var at: Double
    /// Why it ran: `periodic`, `after purchase N` (serial runs), `quiesce`.
    public var reason: String
    /// What it did, when it completed.
    public var report: Reconciler.Report?
    /// Why it failed, when it did.
    public var error: String?

    /// Creates a pass.
    public init(at: Double, reason: String, report: Reconciler.Report?, error: String?) {
        self.at = at
        self.reason = reason
        self.report = report
        self.error = error
    }
}
