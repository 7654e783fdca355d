/// What kind of product was bought: how delivery treats it (a consumable is goods; the
/// others unlock an entitlement). The raw values are what the ledger records and the webhook
/// sends.
public enum ProductKind: String, Codable, Sendable, CaseIterable {
    /// Used up once delivered (coins, potions).
    case consumable = "Consumable"
    /// Bought once, kept for good (a level pack).
    case nonConsumable = "Non-Consumable"
    /// A subscription the store renews until cancelled.
    case autoRenewable = "Auto-Renewable Subscription"
    /// A pass for a fixed period that the player buys again.
    case nonRenewing = "Non-Renewing Subscription"
}
