/// A change of a player's consent to share consumption data, for
/// ``LedgerStore/changeConsumptionConsent(_:)``.
public struct ConsumptionConsentChange: Sendable, Hashable {
    /// The player.
    public var playerId: String
    /// The status after the change.
    public var status: ConsentStatus
    /// Who changes it.
    public var source: ConsentSource
    /// The App Store account the consent is given with (see
    /// ``ConsumptionConsent/appTransactionId``); `nil` keeps the recorded one.
    public var appTransactionId: String?
    /// Who exactly (see ``ConsumptionConsent/changedBy``).
    public var changedBy: String?
    /// Why, for the history (support's reason); `nil` for none.
    public var reason: String?

    /// Creates a change.
    public init(
        playerId: String,
        status: ConsentStatus,
        source: ConsentSource,
        appTransactionId: String? = nil,
        changedBy: String? = nil,
        reason: String? = nil
    ) {
        self.playerId = playerId
        self.status = status
        self.source = source
        self.appTransactionId = appTransactionId
        self.changedBy = changedBy
        self.reason = reason
    }
}
