/// Why ``PurchasePipeline`` refused a call.
public enum PurchaseError: Error, Hashable, Sendable {
    /// No player is signed in: sign one in before buying.
    case noPlayerSignedIn
    /// The pipeline is not running: call ``PurchasePipeline/start()`` first.
    case notRunning
    /// The store could not list the Apple account's transactions (``PurchasePipeline/restore()``).
    case storeUnavailable
}
