/// One change to the Play side's saved state: a line of its log (``PlayStateFile``). The
/// records written are whole (the purchase or subscription as it is after the change), so
/// replaying the lines in order rebuilds the state.
struct PlayStateChange: Codable, Equatable, Sendable {
    /// The snapshot the line follows; lines of an older one (left by a crash between a
    /// compaction's snapshot and the log's truncation) are already in the snapshot.
    var generation: Int
    /// Purchases created or changed, whole.
    var purchases: [PlayPurchase]
    /// Subscriptions created or changed, whole.
    var subscriptions: [PlaySubscription]
    /// Voided records appended.
    var voided: [PlayVoidedRecord]
    /// Notifications published, appended to the outbox.
    var published: [PlayOutgoingNotification]
    /// Message ids of the notifications whose push ended, taken out of the outbox.
    var delivered: [String]

    /// Whether it changes nothing.
    var isEmpty: Bool {
        purchases.isEmpty && subscriptions.isEmpty && voided.isEmpty && published.isEmpty && delivered.isEmpty
    }
}
