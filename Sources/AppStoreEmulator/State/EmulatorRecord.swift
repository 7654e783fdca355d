/// One line of the emulator's journal: the new value of one record. Replaying the
/// journal in order, last value wins, rebuilds the state.
enum EmulatorRecord: Codable, Sendable {
    case device(EmulatedDevice)
    case transaction(EmulatedTransaction)
    case pendingPurchase(PendingPurchase)
    case pendingResolved(pendingId: String)
    case notification(EmulatedNotification)
    case subscription(EmulatedSubscription)
}
