import Foundation
import Ledger

/// `POST /v1/admin/transactions/{transactionId}/consumption`: the game server reports how
/// much of a delivered purchase the player spent, as a share or as amounts per item
/// (exactly one of the two).
struct ConsumptionReportRequest: Codable, Hashable, Sendable {
    /// The share spent, in milliunits: 0 (nothing) to 100,000 (all).
    var consumptionPercentage: Int?
    /// The amounts spent per granted item.
    var spent: Grants?
    /// Who reports (the game server's name for itself), for the history.
    var reportedBy: String?
}

/// A consumption report, as the admin API shows it.
struct ConsumptionReportBody: Codable, Hashable, Sendable {
    var transactionId: String
    var playerId: String
    /// The share spent, in milliunits: what Send Consumption Information states as
    /// `consumptionPercentage`.
    var consumptionPercentage: Int
    /// The amounts reported spent per item, when the report gave amounts.
    var spent: Grants?
    var reportedBy: String?
    var reportedAt: Date

    init(_ report: ConsumptionReport) {
        transactionId = report.transactionId
        playerId = report.playerId
        consumptionPercentage = report.consumptionPercentage
        spent = report.spent
        reportedBy = report.reportedBy
        reportedAt = report.reportedAt
    }
}
