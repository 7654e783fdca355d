/// Something a purchase was still waiting for when the run was judged: while any is left,
/// its charge is in flight, not lost.
public struct PurchaseWait: Codable, Hashable, Sendable {
    /// What kind of work is left.
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// A device's journal holds the order in a state the pipeline still works on
        /// (`purchased`, `reported`, `delivered`, or failed with the transaction unfinished).
        case journal
        /// The store still lists the transaction as unfinished on its device: the app has
        /// not finished it, so it will report it again.
        case unfinishedTransaction
        /// The device's app is not running, so nothing on it moves.
        case appNotRunning
        /// The purchase waits for a parent (Ask to Buy); nothing is charged yet.
        case askToBuy
        /// The purchase is pending at Google Play (a slow payment method); nothing is
        /// charged yet.
        case playPending
        /// A notification about the transaction is neither delivered nor out of attempts.
        case notification
        /// The reconciler's last pass failed, so Apple's history was not read to the end.
        case reconciler
    }

    /// What kind of work is left.
    public var kind: Kind
    /// The details: the device, the journal state, the notification and its attempts, the error.
    public var detail: String

    /// Creates a wait.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }
}
