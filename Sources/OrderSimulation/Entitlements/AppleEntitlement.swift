import Foundation

/// Apple's word, at the end of the run, on one chain (or non-consumable purchase): whether
/// it entitles its customer now, and until when.
public struct AppleEntitlement: Codable, Hashable, Sendable {
    /// Apple's original transaction id.
    public var originalTransactionId: String
    /// Apple's status as a word: `active`, `expired`, `billing retry`, `grace period`,
    /// `revoked` (Get All Subscription Statuses), or `purchased` / `refunded` / `revoked`
    /// for a purchase that does not renew.
    public var status: String
    /// Whether Apple entitles the customer now (active or in grace period; a purchase that
    /// does not renew: neither refunded nor revoked).
    public var entitles: Bool
    /// The latest date Apple entitles until: the expiry, or the grace period's end while in
    /// grace; `nil` when Apple gives none (non-consumable, non-renewing).
    public var entitledUntil: Date?
    /// Creates Apple's word on a chain.
    public init(originalTransactionId: String, status: String, entitles: Bool, entitledUntil: Date?) {
        self.originalTransactionId = originalTransactionId
        self.status = status
        self.entitles = entitles
        self.entitledUntil = entitledUntil
    }
}
