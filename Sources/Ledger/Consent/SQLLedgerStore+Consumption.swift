import Foundation

extension SQLLedgerStore {
    public func consumptionConsent(playerId: String) async throws -> ConsumptionConsent? {
        try await read(.first(LedgerSQL.consumptionConsent(playerId: playerId), ConsumptionConsent.init(row:)))
    }

    public func consumptionConsent(playerId: String, appTransactionId: String?) async throws -> ConsumptionConsent? {
        guard let appTransactionId else { return try await consumptionConsent(playerId: playerId) }
        return try await write(
            LedgerWrites.consumptionConsent(playerId: playerId, appTransactionId: appTransactionId, at: now))
    }

    public func changeConsumptionConsent(_ change: ConsumptionConsentChange) async throws -> ConsentChangeResult {
        try await write(LedgerWrites.changeConsumptionConsent(change, at: now))
    }

    public func recordConsentRescission(_ rescission: ConsentRescission) async throws -> ConsentRescissionResult {
        var rescission = rescission
        rescission.receivedAt = rescission.receivedAt.ledgerNormalized
        rescission.signedDate = rescission.signedDate?.ledgerNormalized
        return try await write(LedgerWrites.recordConsentRescission(rescission, at: now))
    }

    public func recordConsumption(transactionId: String, _ consumption: Consumption, reportedBy: String?)
        async throws -> ConsumptionReport?
    {
        try await write(
            LedgerWrites.recordConsumption(transactionId: transactionId, consumption, reportedBy: reportedBy, at: now))
    }

    public func consumption(transactionId: String) async throws -> ConsumptionReport? {
        try await read(.first(LedgerSQL.consumption(transactionId: transactionId), ConsumptionReport.init(row:)))
    }
}
