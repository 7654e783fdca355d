import Foundation

extension LedgerRules {
    /// The share of `granted` a consumption report states, in milliunits.
    ///
    /// - Throws: ``LedgerError/invalidGrants(_:)`` for a share outside 0...100,000 or spent
    ///   amounts the grant does not allow (see ``Consumption/share(spent:granted:)``).
    static func consumptionPercentage(_ consumption: Consumption, granted: Grants) throws -> Int {
        switch consumption {
        case .share(let share):
            guard (0...RefundShare.whole).contains(share) else {
                throw LedgerError.invalidGrants("consumptionPercentage \(share) is not from 0 to \(RefundShare.whole)")
            }
            return share
        case .spent(let spent):
            guard !spent.isEmpty else { throw LedgerError.invalidGrants("no spent amounts") }
            return try Consumption.share(spent: spent, granted: granted)
        }
    }

    /// The event recording a consumption report.
    static func consumptionReportedEvent(_ report: ConsumptionReport, orderId: String?) throws -> HistoryEvent {
        var detail = ["consumptionPercentage": String(report.consumptionPercentage)]
        detail["spent"] = report.spent.map(LedgerJSON.text)
        detail["reportedBy"] = report.reportedBy
        return HistoryEvent(
            type: .consumptionReported,
            playerId: report.playerId,
            orderId: orderId,
            transactionId: report.transactionId,
            store: .appStore,
            detail: detail,
            createdAt: report.reportedAt
        )
    }
}
