/// Who held a chain's entitlement when a delivery was bound by it (see
/// ``Delivery/boundByHolder``): the ledger reads the entitlement again under its lock in the
/// delivery's transaction and refuses the delivery if the holder changed meanwhile.
public enum ChainHolder: Hashable, Sendable {
    /// The chain had no entitlement yet.
    case nobody
    /// This player held it.
    case player(String)
}
