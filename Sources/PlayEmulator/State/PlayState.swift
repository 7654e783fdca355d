import Foundation

/// Everything the Play side remembers: purchases by token and the access tokens it issued.
/// In memory only in this first slice; a restart forgets them (the keys persist).
struct PlayState: Sendable {
    /// Purchases by purchase token.
    var purchases: [String: PlayPurchase] = [:]
    /// Access tokens the token endpoint issued, with when each expires.
    var accessTokens: [String: Date] = [:]
}
