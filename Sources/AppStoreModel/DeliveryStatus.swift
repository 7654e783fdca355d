/// Whether an In-App Purchase was delivered and works (Apple's `deliveryStatus` of
/// Send Consumption Information V2).
///
/// Unknown values decode unchanged.
public struct DeliveryStatus: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the status.
    public var rawValue: String

    /// Creates a delivery status from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The app delivered the purchase and it works.
    public static let delivered: DeliveryStatus = "DELIVERED"
    /// Not delivered because of a quality issue.
    public static let undeliveredQualityIssue: DeliveryStatus = "UNDELIVERED_QUALITY_ISSUE"
    /// The app delivered the wrong item.
    public static let undeliveredWrongItem: DeliveryStatus = "UNDELIVERED_WRONG_ITEM"
    /// Not delivered because of a server outage.
    public static let undeliveredServerOutage: DeliveryStatus = "UNDELIVERED_SERVER_OUTAGE"
    /// Not delivered for another reason.
    public static let undeliveredOther: DeliveryStatus = "UNDELIVERED_OTHER"

    /// Every value Apple documents.
    public static let documented: Set<DeliveryStatus> = [
        .delivered, .undeliveredQualityIssue, .undeliveredWrongItem, .undeliveredServerOutage, .undeliveredOther,
    ]
}
