import Foundation

/// Everything the Play side remembers: purchases by token, the voided-purchase records and
/// the access tokens it issued. With a data directory the purchases and voided records are
/// saved after every change (``PlayStateFile``) and survive a restart; the access tokens
/// are never saved, so a restart forgets them as a token cache would.
struct PlayState: Sendable {
    /// Purchases by purchase token.
    var purchases: [String: PlayPurchase] = [:]
    /// Refunds, chargebacks and revocations, in the order the emulator recorded them:
    /// what `purchases.voidedpurchases.list` pages through.
    var voided: [PlayVoidedRecord] = []
    /// Access tokens the token endpoint issued, with when each expires.
    var accessTokens: [String: Date] = [:]

    /// Whether the saved part (purchases and voided records) differs from `other`'s.
    func durablyDiffers(from other: PlayState) -> Bool {
        purchases != other.purchases || voided != other.voided
    }
}
