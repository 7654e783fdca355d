import Foundation

/// How the server uses Apple's verifyReceipt for receipts. Local verification always runs
/// first and a receipt it rejects as forged is never delivered.
public struct VerifyReceiptSettings: Codable, Hashable, Sendable {
    /// When to ask Apple.
    public enum Mode: String, Codable, Hashable, Sendable {
        /// Never: local verification alone decides.
        case off
        /// Only for receipts local verification cannot read (iOS 6 style receipts).
        case fallback
        /// For every receipt: Apple must agree that the claimed transaction is in it.
        case secondOpinion = "second_opinion"
    }

    /// When to ask Apple.
    public var mode: Mode
    /// verifyReceipt's production base URL (`<url>/verifyReceipt`).
    public var productionURL: URL?
    /// verifyReceipt's sandbox base URL, tried when production answers 21007.
    public var sandboxURL: URL?
    /// The app-specific shared secret, if the app has one.
    public var sharedSecret: String?

    /// Creates settings; off by default, with Apple's URLs.
    public init(
        mode: Mode = .off,
        productionURL: URL? = URL(string: "https://buy.itunes.apple.com"),
        sandboxURL: URL? = URL(string: "https://sandbox.itunes.apple.com"),
        sharedSecret: String? = nil
    ) {
        self.mode = mode
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.sharedSecret = sharedSecret
    }

    /// Decodes settings; absent keys keep the defaults (off, Apple's URLs).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = VerifyReceiptSettings()
        mode = try container.decodeIfPresent(Mode.self, forKey: .mode) ?? defaults.mode
        productionURL = try container.decodeIfPresent(URL.self, forKey: .productionURL) ?? defaults.productionURL
        sandboxURL = try container.decodeIfPresent(URL.self, forKey: .sandboxURL) ?? defaults.sandboxURL
        sharedSecret = try container.decodeIfPresent(String.self, forKey: .sharedSecret)
    }
}
