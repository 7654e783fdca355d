import Foundation

/// Everything the Play side remembers: purchases by token, the voided-purchase records and
/// the access tokens it issued. In memory only; a restart forgets them (the keys persist).
struct PlayState: Sendable {
    /// Purchases by purchase token.
    var purchases: [String: PlayPurchase] = [:]
    /// Refunds, chargebacks and revocations, in the order the emulator recorded them:
    /// what `purchases.voidedpurchases.list` pages through.
    var voided: [PlayVoidedRecord] = []
    /// Access tokens the token endpoint issued, with when each expires.
    var accessTokens: [String: Date] = [:]
}
