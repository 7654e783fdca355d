/// The outcome of ``EntitlementStore/updateEntitlement(_:)``.
public enum EntitlementChangeResult: Sendable, Hashable {
    /// The entitlement changed (with its history event and outbox message); as it stands now.
    case changed(Entitlement)
    /// The update was older than the recorded data or changed nothing; nothing was written.
    case unchanged(Entitlement)
    /// No entitlement has this original transaction id.
    case unknown
}

/// The outcome of ``EntitlementStore/transferEntitlement(store:originalTransactionId:to:reason:actor:)``.
public enum EntitlementTransferResult: Sendable, Hashable {
    /// The entitlement moved from the player `from` to the new holder; as it stands now.
    case transferred(from: String, Entitlement)
    /// The player already held it; nothing was written.
    case alreadyHeld(Entitlement)
    /// No entitlement has this original transaction id.
    case unknown
}
