/// The outcome of ``LedgerStore/regrant(transactionId:)``.
public enum RegrantResult: Sendable, Hashable {
    /// This call granted the refunded purchase again: the purchase (now delivered) and the
    /// positive entries.
    case regranted(Purchase, LedgerPosting)
    /// The purchase is not refunded (never was, or already re-granted); nothing changed.
    case alreadyGranted(Purchase)
    /// No purchase with that transaction id was ever delivered; nothing changed.
    case unknownTransaction
}
