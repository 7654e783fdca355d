/// What the Android players did on Google Play in a run, for the report.
public struct AndroidFigures: Codable, Hashable, Sendable {
    /// How many Android players bought.
    public var players = 0
    /// Purchases Google charged (paid, at once or after pending).
    public var charged = 0
    /// Purchases Google held pending (a slow payment method) when made.
    public var pending = 0
    /// Pending purchases the buyer gave up on, which Google canceled unpaid.
    public var pendingCancelled = 0
    /// Paid purchases refunded at the player's request.
    public var voided = 0
    /// Paid purchases Google refunded for want of acknowledgement (its three-day rule):
    /// each is a violation.
    public var refundedUnacknowledged = 0

    /// Creates figures.
    public init(
        players: Int = 0, charged: Int = 0, pending: Int = 0, pendingCancelled: Int = 0, voided: Int = 0,
        refundedUnacknowledged: Int = 0
    ) {
        self.players = players
        self.charged = charged
        self.pending = pending
        self.pendingCancelled = pendingCancelled
        self.voided = voided
        self.refundedUnacknowledged = refundedUnacknowledged
    }
}
