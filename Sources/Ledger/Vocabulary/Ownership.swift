/// How the holder came to own what a purchase unlocks. The raw values are what the ledger
/// records and the webhook sends.
public enum Ownership: String, Codable, Sendable, CaseIterable {
    /// The holder bought it.
    case purchased = "PURCHASED"
    /// A family member bought it and shares it (the App Store's Family Sharing).
    case familyShared = "FAMILY_SHARED"
}
