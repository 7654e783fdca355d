/// The outcome of ``LedgerStore/deliver(_:)``.
public enum DeliveryResult: Sendable, Hashable {
    /// This call delivered the transaction: the purchase as recorded.
    case delivered(Purchase)
    /// An earlier call delivered it; this one changed nothing. The purchase is the one
    /// recorded by the first delivery, whatever this call's source or fields.
    case alreadyDelivered(Purchase)

    /// The recorded purchase, either way.
    public var purchase: Purchase {
        switch self {
        case .delivered(let purchase), .alreadyDelivered(let purchase): purchase
        }
    }

    /// Whether this call was the one that delivered.
    public var isFirstDelivery: Bool {
        if case .delivered = self { true } else { false }
    }
}
