import Foundation

extension ConsumptionConsent {
    /// Reads a consent from a row with ``LedgerSQL/consentColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            playerId: try row.requiredText("player_id"),
            status: try row.enumeration(ConsentStatus.self, "status"),
            source: try row.enumeration(ConsentSource.self, "source"),
            appTransactionId: try row.text("app_transaction_id"),
            changedBy: try row.text("changed_by"),
            changedAt: try row.requiredTimestamp("changed_at")
        )
    }
}

extension ConsentRescission {
    /// Reads a rescission from a row with ``LedgerSQL/rescissionColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            notificationUUID: try row.requiredText("notification_uuid"),
            appTransactionId: try row.text("app_transaction_id"),
            signedDate: try row.timestamp("signed_at"),
            receivedAt: try row.requiredTimestamp("received_at")
        )
    }
}

extension ConsumptionReport {
    /// Reads a report from a row with ``LedgerSQL/consumptionColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            transactionId: try row.requiredText("transaction_id"),
            playerId: try row.requiredText("player_id"),
            consumptionPercentage: Int(try row.requiredInteger("consumption_percentage")),
            spent: try row.text("spent").map { try LedgerJSON.decode(Grants.self, from: $0, column: "spent") },
            reportedBy: try row.text("reported_by"),
            reportedAt: try row.requiredTimestamp("reported_at")
        )
    }
}
