extension HistoryEventType {
    /// The player consented to sharing consumption data with the App Store (written by
    /// ``LedgerStore/changeConsumptionConsent(_:)``).
    public static let consumptionConsentGiven: HistoryEventType = "consumption_consent_given"
    /// The player's consent was withdrawn: by the player, support, or Apple's
    /// `RESCIND_CONSENT` (written by ``LedgerStore/changeConsumptionConsent(_:)``,
    /// ``LedgerStore/recordConsentRescission(_:)`` and
    /// ``LedgerStore/consumptionConsent(playerId:appTransactionId:)``).
    public static let consumptionConsentWithdrawn: HistoryEventType = "consumption_consent_withdrawn"
    /// A `RESCIND_CONSENT` named an App Store account no recorded consent names (written by
    /// ``LedgerStore/recordConsentRescission(_:)``); it still counts against later
    /// consumption requests for transactions bought with that account.
    public static let consentRescissionUnmatched: HistoryEventType = "consent_rescission_unmatched"
    /// The game server reported how much of a purchase was spent (written by
    /// ``LedgerStore/recordConsumption(transactionId:_:reportedBy:)``).
    public static let consumptionReported: HistoryEventType = "consumption_reported"
}
