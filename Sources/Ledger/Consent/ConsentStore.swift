import Foundation

/// The ledger's consumption consent and the consumption information reported to the store.
public protocol ConsentStore: Sendable {
    /// The player's consent to share consumption data with the App Store, as last recorded;
    /// `nil` when the player never gave or withdrew one.
    func consumptionConsent(playerId: String) async throws -> ConsumptionConsent?

    /// The player's consent as it counts for a consumption request about a transaction
    /// bought with the App Store account `appTransactionId`: a given consent that a recorded
    /// ``ConsentRescission`` of that account postdates (received at or after the consent)
    /// is withdrawn first, with a ``HistoryEventType/consumptionConsentWithdrawn`` event, in
    /// one database transaction. Without an account, like ``consumptionConsent(playerId:)``.
    func consumptionConsent(playerId: String, appTransactionId: String?) async throws -> ConsumptionConsent?

    /// Gives or withdraws a player's consent and appends a
    /// ``HistoryEventType/consumptionConsentGiven`` or
    /// ``HistoryEventType/consumptionConsentWithdrawn`` event, in one database transaction;
    /// ``ConsentChangeResult/unchanged(_:)`` (nothing written) when the consent already has
    /// that status (and, when given, the change names no other account). Concurrent changes
    /// of one player apply one after the other; the last one stands.
    func changeConsumptionConsent(_ change: ConsumptionConsentChange) async throws -> ConsentChangeResult

    /// Records Apple's `RESCIND_CONSENT` once (by `notificationUUID`) and withdraws every
    /// given consent that names its account, each with its event, in one database
    /// transaction; a rescission that matches no consent gets a
    /// ``HistoryEventType/consentRescissionUnmatched`` event and still counts later through
    /// ``consumptionConsent(playerId:appTransactionId:)``.
    func recordConsentRescission(_ rescission: ConsentRescission) async throws -> ConsentRescissionResult

    /// Records what the game server reports spent of a delivered purchase, replacing an
    /// earlier report, and appends a ``HistoryEventType/consumptionReported`` event; `nil`
    /// (nothing written) when no purchase has this transaction id.
    ///
    /// Throws ``LedgerError/invalidGrants(_:)`` (nothing written) for a share outside
    /// 0...100,000 or spent amounts the purchase's grant does not allow.
    func recordConsumption(transactionId: String, _ consumption: Consumption, reportedBy: String?) async throws
        -> ConsumptionReport?

    /// The latest consumption report of a purchase.
    func consumption(transactionId: String) async throws -> ConsumptionReport?
}
