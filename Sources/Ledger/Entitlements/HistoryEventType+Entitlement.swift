extension HistoryEventType {
    /// An entitlement was created or changed (by ``LedgerStore/deliver(_:)`` or
    /// ``EntitlementStore/updateEntitlement(_:)``). The detail holds `originalTransactionId`,
    /// `entitlementId`, `productId`, `state`, `previousState` (absent when created),
    /// `until` (milliseconds, absent when permanent), `appleSignedDate` and `reason`.
    public static let entitlementChanged: HistoryEventType = "entitlement_changed"
    /// An entitlement moved to another player (written by
    /// ``EntitlementStore/transferEntitlement(store:originalTransactionId:to:reason:actor:)``), once
    /// on each player's timeline. The detail holds `originalTransactionId`, `entitlementId`,
    /// `from`, `to`, `reason` and `actor`.
    public static let entitlementTransferred: HistoryEventType = "entitlement_transferred"
}
