/// Whether a transaction belongs to the purchaser or is shared with them through Family
/// Sharing (Apple's `inAppOwnershipType`, verifyReceipt's `in_app_ownership_type`).
///
/// Unknown values decode unchanged.
public struct InAppOwnershipType: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the ownership type.
    public var rawValue: String

    /// Creates an ownership type from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The user made the purchase.
    public static let purchased: InAppOwnershipType = "PURCHASED"
    /// A family member made the purchase and shares it with the user.
    public static let familyShared: InAppOwnershipType = "FAMILY_SHARED"
}
