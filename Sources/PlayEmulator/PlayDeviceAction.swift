/// What a device or the test harness does to one purchase: the custom method of
/// `POST /emulator/v1/play/devices/{deviceId}/purchases/{purchaseToken}:{action}`.
public enum PlayDeviceAction: String, CaseIterable, Hashable, Sendable {
    /// The slow payment of a pending purchase arrived: it becomes purchased.
    case complete
    /// The slow payment of a pending purchase never came: it is canceled.
    case cancel
    /// The Play Billing Library's `acknowledgePurchase`.
    case acknowledge
    /// The Play Billing Library's `consumeAsync`.
    case consume
    /// The user got the money back (a refund through Google, a chargeback); body
    /// ``PlayDeviceRefundRequest``, optional.
    case refund
    /// The account's payment method is declined from now on: a subscription's next renewal
    /// fails, and it enters its grace period, then the account hold
    /// (``PlayEmulator/settleSubscriptions(_:now:)``).
    case declinePayment
    /// The account's payment works again: a subscription in its grace period or on hold is
    /// charged now (a new order, `SUBSCRIPTION_RECOVERED`); an active one renews as before.
    case fixPayment

    /// The action and the purchase token of a `{purchaseToken}:{action}` path segment;
    /// `nil` when the segment names no action.
    public static func parse(_ segment: String) -> (token: String, action: PlayDeviceAction)? {
        guard let colon = segment.lastIndex(of: ":"), colon != segment.startIndex,
            let action = PlayDeviceAction(rawValue: String(segment[segment.index(after: colon)...]))
        else { return nil }
        return (String(segment[..<colon]), action)
    }
}
