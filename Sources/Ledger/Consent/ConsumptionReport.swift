import Foundation

/// How much of a delivered purchase's grant the player spent, as the game server last
/// reported it: the `consumptionPercentage` of Send Consumption Information.
public struct ConsumptionReport: Sendable, Hashable, Codable {
    /// The purchase's transaction id.
    public var transactionId: String
    /// The player who holds the purchase.
    public var playerId: String
    /// The share of the grant spent, in milliunits: 0 (nothing) to 100,000 (all of it).
    public var consumptionPercentage: Int
    /// The amounts spent per item, when the game reported amounts rather than a share.
    public var spent: Grants?
    /// Who reported it (the game server's name for itself); `nil` when unnamed.
    public var reportedBy: String?
    /// When it was reported (server time).
    public var reportedAt: Date

    /// Creates a report value.
    public init(
        transactionId: String,
        playerId: String,
        consumptionPercentage: Int,
        spent: Grants?,
        reportedBy: String?,
        reportedAt: Date
    ) {
        self.transactionId = transactionId
        self.playerId = playerId
        self.consumptionPercentage = consumptionPercentage
        self.spent = spent
        self.reportedBy = reportedBy
        self.reportedAt = reportedAt
    }
}
