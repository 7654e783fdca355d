import Foundation
import Ledger

/// `PUT /v1/players/me/consumption-consent`: the player consents to sharing consumption
/// data with the App Store. The body may be empty.
struct GiveConsentRequest: Codable, Hashable, Sendable {
    /// The app's signed app transaction (StoreKit's `AppTransaction.shared`
    /// `jwsRepresentation`): ties the consent to the player's App Store account, so that
    /// Apple's `RESCIND_CONSENT` for that account withdraws it.
    var signedAppTransaction: String?
}

/// A player's consent to share consumption data, as the API shows it (the player's own
/// answers and the admin API).
struct ConsentBody: Codable, Hashable, Sendable {
    var playerId: String
    /// Whether the server may answer Apple's consumption requests for the player's
    /// purchases now.
    var consented: Bool
    /// `given` or `withdrawn`; absent when the player never gave or withdrew consent.
    var status: ConsentStatus?
    /// Who made the latest change: `player`, `admin` or `apple_rescind_consent`.
    var source: ConsentSource?
    /// The App Store account the consent was given with.
    var appTransactionId: String?
    /// Support's name, or the `notificationUUID` of Apple's `RESCIND_CONSENT`.
    var changedBy: String?
    /// When the latest change was recorded.
    var changedAt: Date?

    init(playerId: String, consent: ConsumptionConsent?) {
        self.playerId = playerId
        consented = consent?.isGiven ?? false
        status = consent?.status
        source = consent?.source
        appTransactionId = consent?.appTransactionId
        changedBy = consent?.changedBy
        changedAt = consent?.changedAt
    }
}
