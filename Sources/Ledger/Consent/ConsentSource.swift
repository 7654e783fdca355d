/// Who changed a player's consent to share consumption data.
public enum ConsentSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The player, through the player API (the only source that gives consent).
    case player
    /// Support staff, through the admin API, on the player's behalf (withdrawal only).
    case admin
    /// Apple's `RESCIND_CONSENT` notification about the App Store account the player
    /// consented with, or bought the transaction with.
    case appleRescindConsent = "apple_rescind_consent"
}
