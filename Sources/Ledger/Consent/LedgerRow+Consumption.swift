import Foundation

extension ConsumptionConsent {
    /// Reads a consent from a row with ``ConsumptionConsentTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<ConsumptionConsentTable>(row)
        self.init(
            playerId: try row.requiredText(.playerId),
            status: try row.enumeration(ConsentStatus.self, .status),
            source: try row.enumeration(ConsentSource.self, .source),
            appTransactionId: try row.text(.appTransactionId),
            changedBy: try row.text(.changedBy),
            changedAt: try row.requiredTimestamp(.changedAt)
        )
    }
}

extension ConsentRescission {
    /// Reads a rescission from a row with ``ConsentRescissionTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<ConsentRescissionTable>(row)
        self.init(
            notificationUUID: try row.requiredText(.notificationUUID),
            appTransactionId: try row.text(.appTransactionId),
            signedDate: try row.timestamp(.signedAt),
            receivedAt: try row.requiredTimestamp(.receivedAt)
        )
    }
}

extension ConsumptionReport {
    /// Reads a report from a row with ``ConsumptionReportTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<ConsumptionReportTable>(row)
        self.init(
            transactionId: try row.requiredText(.transactionId),
            playerId: try row.requiredText(.playerId),
            consumptionPercentage: Int(try row.requiredInteger(.consumptionPercentage)),
            spent: try row.text(.spent).map { try LedgerJSON.decode(Grants.self, from: $0, column: "spent") },
            reportedBy: try row.text(.reportedBy),
            reportedAt: try row.requiredTimestamp(.reportedAt)
        )
    }
}
