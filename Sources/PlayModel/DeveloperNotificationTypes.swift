/// `OneTimeProductNotification.notificationType`'s values, Google's numbers.
public enum OneTimeProductNotificationType {
    /// 1 `ONE_TIME_PRODUCT_PURCHASED`: a one-time product was purchased.
    public static let purchased = 1
    /// 2 `ONE_TIME_PRODUCT_CANCELED`: a pending one-time purchase was canceled.
    public static let canceled = 2
}

/// `SubscriptionNotification.notificationType`'s values, Google's numbers.
public enum SubscriptionNotificationType {
    /// 1 `SUBSCRIPTION_RECOVERED`: recovered from account hold, or resumed from a pause.
    public static let recovered = 1
    /// 2 `SUBSCRIPTION_RENEWED`: an active subscription renewed.
    public static let renewed = 2
    /// 3 `SUBSCRIPTION_CANCELED`: canceled, voluntarily or not.
    public static let canceled = 3
    /// 4 `SUBSCRIPTION_PURCHASED`: a new subscription was purchased.
    public static let purchased = 4
    /// 5 `SUBSCRIPTION_ON_HOLD`: entered account hold.
    public static let onHold = 5
    /// 6 `SUBSCRIPTION_IN_GRACE_PERIOD`: entered the grace period.
    public static let inGracePeriod = 6
    /// 7 `SUBSCRIPTION_RESTARTED`: restored from canceled before it expired.
    public static let restarted = 7
    /// 9 `SUBSCRIPTION_DEFERRED`: its renewal time was pushed back.
    public static let deferred = 9
    /// 10 `SUBSCRIPTION_PAUSED`: paused.
    public static let paused = 10
    /// 11 `SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED`: its pause schedule changed.
    public static let pauseScheduleChanged = 11
    /// 12 `SUBSCRIPTION_REVOKED`: revoked before it expired.
    public static let revoked = 12
    /// 13 `SUBSCRIPTION_EXPIRED`: expired.
    public static let expired = 13
    /// 19 `SUBSCRIPTION_PRICE_CHANGE_UPDATED`: a price change's details were updated.
    public static let priceChangeUpdated = 19
    /// 20 `SUBSCRIPTION_PENDING_PURCHASE_CANCELED`: a pending subscription purchase was canceled.
    public static let pendingPurchaseCanceled = 20
}

/// `VoidedPurchaseNotification.productType`'s values, Google's numbers.
public enum VoidedPurchaseProductType {
    /// 1 `PRODUCT_TYPE_SUBSCRIPTION`.
    public static let subscription = 1
    /// 2 `PRODUCT_TYPE_ONE_TIME`.
    public static let oneTime = 2
}

/// `VoidedPurchaseNotification.refundType`'s values, Google's numbers.
public enum VoidedPurchaseRefundType {
    /// 1 `REFUND_TYPE_FULL_REFUND`: the whole purchase was voided.
    public static let fullRefund = 1
    /// 2 `REFUND_TYPE_QUANTITY_BASED_PARTIAL_REFUND`: some units of a multi-quantity purchase.
    public static let quantityBasedPartialRefund = 2
}
