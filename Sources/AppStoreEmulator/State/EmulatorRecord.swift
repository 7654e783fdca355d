/// One line of the emulator's journal: the new value of one record. Replaying the
/// journal in order, last value wins, rebuilds the state.
enum EmulatorRecord: Codable, Sendable {
    case device(EmulatedDevice)
    case transaction(EmulatedTransaction)
    case pendingPurchase(PendingPurchase)
    case pendingResolved(pendingId: String)
    case notification(EmulatedNotification)
    /// A delivery attempt of a notification journaled before: added to its attempts, so
    /// an attempt does not write the whole signed notification again.
    case notificationAttempt(notificationUUID: String, attempt: EmulatedNotification.Attempt)
    case subscription(EmulatedSubscription)
    case promotion(EmulatedPromotion)
    /// The device's app took the promotion.
    case promotionTaken(promotionId: String)
}
