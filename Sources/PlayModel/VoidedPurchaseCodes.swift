/// `VoidedPurchase.voidedSource`'s values, Google's numbers: who voided the purchase.
public enum VoidedSource {
    /// 0: the user (a refund the user asked Google for, a chargeback).
    public static let user = 0
    /// 1: the developer (`orders.refund`, the Play Console's refund).
    public static let developer = 1
    /// 2: Google (for example a purchase not acknowledged within three days).
    public static let google = 2
}

/// `VoidedPurchase.voidedReason`'s values, Google's numbers: why the purchase was voided.
public enum VoidedReason {
    /// 0: other.
    public static let other = 0
    /// 1: remorse.
    public static let remorse = 1
    /// 2: not received.
    public static let notReceived = 2
    /// 3: defective.
    public static let defective = 3
    /// 4: accidental purchase.
    public static let accidentalPurchase = 4
    /// 5: fraud.
    public static let fraud = 5
    /// 6: friendly fraud.
    public static let friendlyFraud = 6
    /// 7: chargeback.
    public static let chargeback = 7
    /// 8: unacknowledged purchase (Google's three-day rule).
    public static let unacknowledgedPurchase = 8
}
