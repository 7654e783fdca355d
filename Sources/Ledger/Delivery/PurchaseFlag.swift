/// Well-known values for ``Delivery/flags`` and ``Purchase/flags``: facts about a delivery
/// that support staff should see. Flags are free-form strings; these are the ones the
/// purchase server and the ledger set.
public enum PurchaseFlag {
    /// The transaction carried no order binding (promoted purchase, lost token) and went
    /// to the authenticated reporter.
    public static let unbound = "unbound"
    /// A sandbox purchase accepted by a production deployment (review accounts).
    public static let sandboxInProduction = "sandbox_in_production"
    /// Set by the ledger: the delivery named an order that another transaction had
    /// already fulfilled. The goods are still delivered (Apple charged for them).
    public static let orderAlreadyFulfilled = "order_already_fulfilled"
}
