/// Whether an order id was found (Apple's `OrderLookupStatus` in an
/// ``OrderLookupResponse``).
///
/// Unknown values decode unchanged.
public struct OrderLookupStatus: OpenEnumeration, ExpressibleByIntegerLiteral {
    /// Apple's integer for the status.
    public var rawValue: Int

    /// Creates a status from Apple's integer.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 0: the order id is valid; the response lists its transactions.
    public static let valid: OrderLookupStatus = 0
    /// 1: the order id is not valid, or it belongs to another app.
    public static let invalid: OrderLookupStatus = 1
}
