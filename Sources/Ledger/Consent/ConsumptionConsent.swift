import Foundation

/// A player's consent to share consumption data with the App Store, as the ledger last
/// recorded it: the server sends Send Consumption Information for a player's purchase only
/// while it is ``ConsentStatus/given``. Every change is also a history event on the
/// player's timeline.
public struct ConsumptionConsent: Sendable, Hashable, Codable {
    /// The player.
    public var playerId: String
    /// Given or withdrawn.
    public var status: ConsentStatus
    /// Who made the latest change.
    public var source: ConsentSource
    /// The `appTransactionId` of the App Store account the player consented with, from the
    /// signed app transaction the app sent with its consent (a later `RESCIND_CONSENT` for
    /// that account withdraws the consent); `nil` when the app sent none.
    public var appTransactionId: String?
    /// Who exactly: support's name for ``ConsentSource/admin``, the `notificationUUID`
    /// for ``ConsentSource/appleRescindConsent``; `nil` for the player.
    public var changedBy: String?
    /// When the latest change was recorded (server time).
    public var changedAt: Date

    /// Creates a consent value.
    public init(
        playerId: String,
        status: ConsentStatus,
        source: ConsentSource,
        appTransactionId: String?,
        changedBy: String?,
        changedAt: Date
    ) {
        self.playerId = playerId
        self.status = status
        self.source = source
        self.appTransactionId = appTransactionId
        self.changedBy = changedBy
        self.changedAt = changedAt
    }

    /// Whether the consent stands.
    public var isGiven: Bool { status == .given }
}
