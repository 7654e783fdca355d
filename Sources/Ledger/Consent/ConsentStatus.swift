/// Whether a player's consent to share consumption data with the App Store stands.
public enum ConsentStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The player consented; the server may answer Apple's `CONSUMPTION_REQUEST`.
    case given
    /// The consent was withdrawn (or refused); the server answers nothing.
    case withdrawn
}
