import Foundation

extension LedgerSQL {
    // MARK: Consent

    static func consumptionConsent(playerId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(ConsumptionConsentTable.columns) FROM consumption_consents WHERE player_id = ?", [.text(playerId)]
        )
    }

    /// Records the change unless the consent already is what it asks for (same status, and
    /// no new account); a row only when this statement changed it. The upsert locks the
    /// player's row (PostgreSQL), so concurrent changes apply one after the other, and
    /// ``notBefore`` keeps their times in that order.
    static func changeConsumptionConsent(_ change: ConsumptionConsentChange, at: Date) -> LedgerStatement {
        ConsumptionConsentTable.insert(
            [
                .playerId: .text(change.playerId), .status: .text(change.status.rawValue),
                .source: .text(change.source.rawValue), .appTransactionId: .optional(change.appTransactionId),
                .changedBy: .optional(change.changedBy), .changedAt: .timestamp(at),
            ],
            """
            ON CONFLICT (player_id) DO UPDATE SET
                status = excluded.status, source = excluded.source,
                app_transaction_id = COALESCE(excluded.app_transaction_id, consumption_consents.app_transaction_id),
                changed_by = excluded.changed_by, changed_at = \(notBefore("excluded.changed_at"))
            WHERE consumption_consents.status <> excluded.status
               OR (excluded.app_transaction_id IS NOT NULL
                   AND (consumption_consents.app_transaction_id IS NULL
                        OR consumption_consents.app_transaction_id <> excluded.app_transaction_id))
            RETURNING \(ConsumptionConsentTable.columns)
            """)
    }

    /// Withdraws every given consent that names the account; the rows it changed.
    static func withdrawConsents(appTransactionId: String, notificationUUID: String, at: Date) -> LedgerStatement {
        LedgerStatement(
            """
            UPDATE consumption_consents
            SET status = 'withdrawn', source = ?, changed_by = ?, changed_at = \(notBefore("?"))
            WHERE app_transaction_id = ? AND status = 'given'
            RETURNING \(ConsumptionConsentTable.columns)
            """,
            [
                .text(ConsentSource.appleRescindConsent.rawValue), .text(notificationUUID), .timestamp(at),
                .timestamp(at), .text(appTransactionId),
            ]
        )
    }

    /// Withdraws the player's given consent if a rescission of the account was received at
    /// or after the consent was given; the row only when it did. The rescission is read in
    /// the same statement, so a consent given again in between is never withdrawn by it.
    static func withdrawConsentRescinded(playerId: String, appTransactionId: String, at: Date) -> LedgerStatement {
        let latest = """
            SELECT notification_uuid FROM consent_rescissions
            WHERE app_transaction_id = ? AND received_at >= consumption_consents.changed_at
            ORDER BY received_at DESC, notification_uuid LIMIT 1
            """
        return LedgerStatement(
            """
            UPDATE consumption_consents
            SET status = 'withdrawn', source = ?, changed_by = (\(latest)), changed_at = \(notBefore("?"))
            WHERE player_id = ? AND status = 'given' AND EXISTS (\(latest))
            RETURNING \(ConsumptionConsentTable.columns)
            """,
            [
                .text(ConsentSource.appleRescindConsent.rawValue), .text(appTransactionId), .timestamp(at),
                .timestamp(at), .text(playerId), .text(appTransactionId),
            ]
        )
    }

    /// A consent's new change time: `time`, or the recorded one if that is later (the
    /// clock is read before the transaction waits for the row), so the times of one
    /// player's changes, and of their events, follow the order the changes were applied in.
    private static func notBefore(_ time: String) -> String {
        "CASE WHEN \(time) > consumption_consents.changed_at THEN \(time) ELSE consumption_consents.changed_at END"
    }

    /// Records a rescission unless its notification is known; a row only when recorded.
    static func insertRescission(_ rescission: ConsentRescission) -> LedgerStatement {
        ConsentRescissionTable.insert(
            [
                .notificationUUID: .text(rescission.notificationUUID),
                .appTransactionId: .optional(rescission.appTransactionId), .signedAt: .optional(rescission.signedDate),
                .receivedAt: .timestamp(rescission.receivedAt),
            ],
            "ON CONFLICT (notification_uuid) DO NOTHING RETURNING \(ConsentRescissionTable.columns)")
    }

    // MARK: Consumption reports

    /// Records the report, replacing an earlier one for the transaction; returns it.
    static func upsertConsumption(_ report: ConsumptionReport) throws -> LedgerStatement {
        ConsumptionReportTable.insert(
            [
                .transactionId: .text(report.transactionId), .playerId: .text(report.playerId),
                .consumptionPercentage: .integer(Int64(report.consumptionPercentage)),
                .spent: .optional(report.spent.map(LedgerJSON.text)), .reportedBy: .optional(report.reportedBy),
                .reportedAt: .timestamp(report.reportedAt),
            ],
            """
            ON CONFLICT (transaction_id) DO UPDATE SET
                player_id = excluded.player_id, consumption_percentage = excluded.consumption_percentage,
                spent = excluded.spent, reported_by = excluded.reported_by, reported_at = excluded.reported_at
            RETURNING \(ConsumptionReportTable.columns)
            """)
    }

    static func consumption(transactionId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(ConsumptionReportTable.columns) FROM consumption_reports WHERE transaction_id = ?",
            [.text(transactionId)])
    }
}
