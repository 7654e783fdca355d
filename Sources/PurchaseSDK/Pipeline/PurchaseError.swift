/// Why ``PurchasePipeline`` refused a call.
public enum PurchaseError: Error, Hashable, Sendable {
    /// No player is signed in: sign one in before buying.
    case noPlayerSignedIn
    /// The pipeline is not running: call ``PurchasePipeline/start()`` first.
    case notRunning
}
