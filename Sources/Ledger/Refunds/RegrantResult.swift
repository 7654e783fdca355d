/// The outcome of ``LedgerStore/regrant(store:transactionId:)``.
public enum RegrantResult: Sendable, Hashable {
    /// This call gave back what had been taken of the grant (a whole or a partial refund):
    /// the purchase (now delivered, nothing refunded) and the positive entries.
    case regranted(Purchase, LedgerPosting)
    /// Nothing of the purchase is refunded (never was, or already re-granted); nothing changed.
    case alreadyGranted(Purchase)
    /// No purchase with that transaction id was ever delivered; nothing changed.
    case unknownTransaction
}
