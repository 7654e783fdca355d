/// The outcome of ``LedgerStore/changeConsumptionConsent(_:)``.
public enum ConsentChangeResult: Sendable, Hashable {
    /// The consent changed (and a history event records it); the consent as it stands now.
    case changed(ConsumptionConsent)
    /// The consent already was what the change asks for; nothing was written.
    case unchanged(ConsumptionConsent)

    /// The consent as it stands after the call.
    public var consent: ConsumptionConsent {
        switch self {
        case .changed(let consent), .unchanged(let consent): consent
        }
    }
}
