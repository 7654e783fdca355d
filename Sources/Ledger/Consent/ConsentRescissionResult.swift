/// The outcome of ``LedgerStore/recordConsentRescission(_:)``.
public enum ConsentRescissionResult: Sendable, Hashable {
    /// Recorded now; the consents it withdrew (empty when no recorded consent names the
    /// account: a history event says the rescission matched no player).
    case recorded(withdrawn: [ConsumptionConsent])
    /// Recorded before (same `notificationUUID`); nothing changed.
    case duplicate
}
