import Foundation

/// Everything the Play side remembers: purchases by token, the voided-purchase records, the
/// notifications not yet delivered and the access tokens it issued. With a data directory
/// the purchases, voided records and notifications are saved after every change (``PlayStateFile``) and survive a restart; the access tokens
/// are never saved, so a restart forgets them as a token cache would.
struct PlayState: Sendable {
    /// Purchases by purchase token.
    var purchases: [String: PlayPurchase] = [:]
    /// Subscriptions by purchase token.
    var subscriptions: [String: PlaySubscription] = [:]
    /// Refunds, chargebacks and revocations, in the order the emulator recorded them:
    /// what `purchases.voidedpurchases.list` pages through.
    var voided: [PlayVoidedRecord] = []
    /// Access tokens the token endpoint issued, with when each expires.
    var accessTokens: [String: Date] = [:]
    /// Notifications published and not yet delivered, oldest first.
    var outbox: [PlayOutgoingNotification] = []
    /// The message ids of ``outbox`` handed to the push sink in this process.
    var submitted: Set<String> = []

    /// Whether the saved part (purchases, voided records, notifications not delivered)
    /// differs from `other`'s.
    func durablyDiffers(from other: PlayState) -> Bool {
        purchases != other.purchases || subscriptions != other.subscriptions || voided != other.voided
            || outbox != other.outbox
    }
}
