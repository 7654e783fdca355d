import Foundation

extension LedgerWrites {
    /// Applies a consent change and appends its event, in one transaction; unchanged (nothing
    /// written) when the consent already is what the change asks for.
    static func changeConsumptionConsent(
        _ change: ConsumptionConsentChange,
        at now: Date
    ) -> LedgerOperation<ConsentChangeResult> {
        LedgerOperation.first(LedgerSQL.changeConsumptionConsent(change, at: now), ConsumptionConsent.init(row:))
            .then { changed in
                if let changed {
                    var detail: [String: String] = [:]
                    detail["reason"] = change.reason
                    let event = consentEvent(changed, detail: detail)
                    return LedgerOperation.execute(try LedgerSQL.insertEvent(event)).map { .changed(changed) }
                }
                return LedgerOperation.first(
                    LedgerSQL.consumptionConsent(playerId: change.playerId), ConsumptionConsent.init(row:)
                ).map { current in
                    guard let current else { throw LedgerError.corruptRow("consent of \(change.playerId) vanished") }
                    return .unchanged(current)
                }
            }
    }

    /// Records a rescission once and withdraws the consents that name its account, each
    /// with its event; a rescission that matches no consent gets an
    /// ``HistoryEventType/consentRescissionUnmatched`` event.
    static func recordConsentRescission(
        _ rescission: ConsentRescission,
        at now: Date
    ) -> LedgerOperation<ConsentRescissionResult> {
        LedgerOperation.first(LedgerSQL.insertRescission(rescission), ConsentRescission.init(row:)).then { recorded in
            guard recorded != nil else { return .done(.duplicate) }
            let withdrawn: LedgerOperation<[ConsumptionConsent]> =
                rescission.appTransactionId.map { account in
                    .rows(
                        LedgerSQL.withdrawConsents(
                            appTransactionId: account, notificationUUID: rescission.notificationUUID, at: now),
                        ConsumptionConsent.init(row:))
                } ?? .done([])
            return withdrawn.then { consents in
                let detail = rescissionDetail(rescission)
                guard !consents.isEmpty else {
                    var detail = detail
                    detail["reason"] =
                        rescission.appTransactionId == nil
                        ? "the notification carries no appTransactionId"
                        : "no recorded consent names this appTransactionId"
                    let event = HistoryEvent(type: .consentRescissionUnmatched, detail: detail, createdAt: now)
                    return LedgerOperation.execute(try LedgerSQL.insertEvent(event)).map { .recorded(withdrawn: []) }
                }
                return LedgerOperation<Void>.reduce(consents.sorted { $0.playerId < $1.playerId }, into: ()) {
                    _, consent in
                    .execute(try LedgerSQL.insertEvent(consentEvent(consent, detail: detail)))
                }
                .map { .recorded(withdrawn: consents) }
            }
        }
    }

    /// Withdraws the player's consent if a rescission of `appTransactionId` postdates it
    /// (with its event), then returns the consent as it stands.
    static func consumptionConsent(
        playerId: String,
        appTransactionId: String,
        at now: Date
    ) -> LedgerOperation<ConsumptionConsent?> {
        LedgerOperation.first(
            LedgerSQL.withdrawConsentRescinded(playerId: playerId, appTransactionId: appTransactionId, at: now),
            ConsumptionConsent.init(row:)
        ).then { withdrawn in
            guard let withdrawn else {
                return .first(LedgerSQL.consumptionConsent(playerId: playerId), ConsumptionConsent.init(row:))
            }
            let detail = [
                "appTransactionId": appTransactionId,
                "reason": "a RESCIND_CONSENT of the account a transaction of the player was bought with",
            ]
            return LedgerOperation.execute(try LedgerSQL.insertEvent(consentEvent(withdrawn, detail: detail)))
                .map { withdrawn }
        }
    }

    /// Records what was spent of a delivered purchase (replacing an earlier report) and its
    /// event; `nil` (nothing written) when no purchase has the transaction id. Consumption
    /// information is the App Store's (Apple asks for it; no other store does), so the id is
    /// an App Store transaction id.
    static func recordConsumption(
        transactionId: String,
        _ consumption: Consumption,
        reportedBy: String?,
        at now: Date
    ) -> LedgerOperation<ConsumptionReport?> {
        LedgerOperation.first(
            LedgerSQL.purchase(store: .appStore, transactionId: transactionId), Purchase.init(row:)
        ).then { purchase in
            guard let purchase else { return .done(nil) }
            let report = ConsumptionReport(
                transactionId: transactionId,
                playerId: purchase.playerId,
                consumptionPercentage: try LedgerRules.consumptionPercentage(consumption, granted: purchase.grants),
                spent: consumption.spent,
                reportedBy: reportedBy,
                reportedAt: now
            )
            return LedgerOperation.first(try LedgerSQL.upsertConsumption(report), ConsumptionReport.init(row:))
                .then { stored in
                    guard let stored else { throw LedgerError.corruptRow("consumption upsert returned nothing") }
                    let event = try LedgerRules.consumptionReportedEvent(stored, orderId: purchase.orderId)
                    return LedgerOperation.execute(try LedgerSQL.insertEvent(event)).map { stored }
                }
        }
    }

    /// The event recording a consent as it now stands, with the change's `detail`.
    private static func consentEvent(_ consent: ConsumptionConsent, detail: [String: String]) -> HistoryEvent {
        var detail = detail
        detail["source"] = consent.source.rawValue
        detail["appTransactionId"] = detail["appTransactionId"] ?? consent.appTransactionId
        detail["changedBy"] = consent.changedBy
        return HistoryEvent(
            type: consent.isGiven ? .consumptionConsentGiven : .consumptionConsentWithdrawn,
            playerId: consent.playerId,
            detail: detail,
            createdAt: consent.changedAt
        )
    }

    /// The history detail naming a rescission.
    private static func rescissionDetail(_ rescission: ConsentRescission) -> [String: String] {
        var detail = ["notificationUUID": rescission.notificationUUID]
        detail["appTransactionId"] = rescission.appTransactionId
        detail["signedDate"] = rescission.signedDate.map { String($0.ledgerMilliseconds) }
        return detail
    }
}

extension Consumption {
    /// The amounts spent, when the game reported amounts.
    var spent: Grants? {
        if case .spent(let grants) = self { return grants }
        return nil
    }
}
