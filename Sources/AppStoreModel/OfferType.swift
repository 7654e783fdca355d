/// The type of subscription offer a transaction or renewal uses (Apple's `offerType`).
///
/// Unknown values decode unchanged.
public struct OfferType: OpenEnumeration, ExpressibleByIntegerLiteral {
    /// Apple's integer for the offer type.
    public var rawValue: Int

    /// Creates an offer type from Apple's integer.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 1: an introductory offer.
    public static let introductory: OfferType = 1
    /// 2: a promotional offer.
    public static let promotional: OfferType = 2
    /// 3: an offer with a subscription offer code.
    public static let offerCode: OfferType = 3
    /// 4: a win-back offer.
    public static let winBack: OfferType = 4
}
