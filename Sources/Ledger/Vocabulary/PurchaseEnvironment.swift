/// Where a store says a purchase was made. The raw values are what the ledger records and
/// the webhook sends, unchanged since the App Store was the only store.
public enum PurchaseEnvironment: String, Codable, Sendable, CaseIterable {
    /// Real money.
    case production = "Production"
    /// The store's test payments (Apple's sandbox; Google Play's license testers).
    case sandbox = "Sandbox"
    /// A developer's machine, signed by Xcode.
    case xcode = "Xcode"
    /// A local test store (StoreKit testing, or an emulator), signed by its own key.
    case localTesting = "LocalTesting"
}
