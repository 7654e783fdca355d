/// Which path reported a transaction for delivery. All paths converge on the same
/// idempotent ``LedgerStore/deliver(_:)``; the source of the first report is kept.
public enum DeliverySource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The device sent a StoreKit 2 signed transaction (JWS).
    case clientSignedTransaction = "client_signed_transaction"
    /// The device sent an App Store receipt.
    case clientReceipt = "client_receipt"
    /// The device reported a Google Play purchase token, read from the Play Developer API.
    case clientPlayPurchase = "client_play_purchase"
    /// An App Store Server Notification (e.g. `ONE_TIME_CHARGE`).
    case notification
    /// The reconciler found it in Apple's notification history.
    case reconciler
    /// Support looked the order up with Apple (Look Up Order ID).
    case adminLookup = "admin_lookup"
}
