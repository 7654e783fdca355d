/// The kind of a ``HistoryEvent``: a stable, machine-readable string. Open: any string is
/// a valid type, so the purchase server can record its own (e.g. a rejection reason).
public struct HistoryEventType: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The stable string.
    public var rawValue: String

    /// Creates a type from its string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a type from a string literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// Decodes the type from its string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the type as its string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The stable string.
    public var description: String { rawValue }

    /// An order was created (written by ``LedgerStore/createOrder(_:)``).
    public static let orderCreated: HistoryEventType = "order_created"
    /// A transaction was delivered (written by ``LedgerStore/deliver(_:)``).
    public static let delivered: HistoryEventType = "delivered"
    /// The refunded share of a purchase grew (a whole or partial refund) and the ledger took
    /// back the difference; the detail holds `refundedShare`, `previousRefundedShare`
    /// (milliunits), the signed `grants` moved and the `reason` (written by
    /// ``LedgerStore/settleRefundState(store:transactionId:reason:)`` and
    /// ``LedgerStore/reverse(store:transactionId:reason:)``).
    public static let refunded: HistoryEventType = "refunded"
    /// The refunded share of a purchase shrank (a refund reversal) and the ledger gave back
    /// the difference; the same detail without `reason` (written by
    /// ``LedgerStore/settleRefundState(store:transactionId:reason:)`` and ``LedgerStore/regrant(store:transactionId:)``).
    public static let refundReversed: HistoryEventType = "refund_reversed"
    /// Support staff granted goods by hand (written by ``LedgerStore/grantManually(playerId:grants:reason:actor:)``).
    public static let manualGrant: HistoryEventType = "manual_grant"
    /// The game spent from a player's wallet; the detail holds the `idempotencyKey`, the
    /// `items` debited, the `reason`, the `actor` and the `balances` after (written by
    /// ``SpendStore/spend(_:)``).
    public static let spend: HistoryEventType = "spend"
    /// An App Store Server Notification was received for the first time.
    public static let notificationReceived: HistoryEventType = "notification_received"
    /// A notification was recorded and the server does not act on its type (or it carried
    /// nothing to act on).
    public static let notificationNotActedOn: HistoryEventType = "notification_not_acted_on"
    /// The events that are a store's notification, as the support console lists them; the
    /// ledger indexes those of each player (``LedgerSchema/playerPageIndexes``).
    public static let notificationTypes: [HistoryEventType] = [.notificationReceived, .notificationNotActedOn]
    /// The device reported a purchase-flow event (written by ``LedgerStore/appendClientEvents(playerId:events:)``).
    public static let clientEvent: HistoryEventType = "client_event"
    /// A report was refused because the transaction is bound to another player's order.
    public static let transactionBelongsToOtherPlayer: HistoryEventType = "transaction_belongs_to_other_player"
    /// A report was refused for another reason (the reason goes in the detail).
    public static let purchaseRejected: HistoryEventType = "purchase_rejected"
    /// Apple charged for a transaction the server could not yet deliver to anyone (no order
    /// binds it): it waits for the player's report or for support. The detail holds `reason`,
    /// `productId` and `source` (written by the purchase server's notification intake; the
    /// support console's owed queue, ``SupportReads/owedTransactions(learnedBefore:limit:)``,
    /// reads them).
    public static let awaitingReport: HistoryEventType = "awaiting_report"
}
