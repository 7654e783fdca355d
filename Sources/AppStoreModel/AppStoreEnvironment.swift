/// The App Store environment a piece of signed data or a receipt belongs to.
///
/// Raw values are Apple's strings. Unknown values decode unchanged, so data from a
/// newer App Store never fails to decode because of a new environment.
public struct AppStoreEnvironment: RawRepresentable, Hashable, Codable, Sendable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// Apple's string for the environment.
    public var rawValue: String

    /// Creates an environment from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates an environment from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Real purchases, charged to real accounts.
    public static let production: AppStoreEnvironment = "Production"
    /// Apple's sandbox: test accounts, no charge.
    public static let sandbox: AppStoreEnvironment = "Sandbox"
    /// Xcode's StoreKit testing.
    public static let xcode: AppStoreEnvironment = "Xcode"
    /// Local StoreKit testing outside Xcode.
    public static let localTesting: AppStoreEnvironment = "LocalTesting"

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
