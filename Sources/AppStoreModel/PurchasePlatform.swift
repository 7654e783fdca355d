/// The platform on which the customer first bought the app (Apple's `originalPlatform`
/// in an app transaction).
///
/// Unknown values decode unchanged.
public struct PurchasePlatform: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the platform.
    public var rawValue: String

    /// Creates a platform from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// iOS (including iPadOS).
    public static let iOS: PurchasePlatform = "iOS"
    /// macOS.
    public static let macOS: PurchasePlatform = "macOS"
    /// tvOS.
    public static let tvOS: PurchasePlatform = "tvOS"
    /// visionOS.
    public static let visionOS: PurchasePlatform = "visionOS"
}
