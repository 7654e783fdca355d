import Foundation

/// Everything the Play side remembers: purchases by token, the voided-purchase records, the
/// notifications not yet delivered and the access tokens it issued. With a data directory
/// the purchases, subscriptions, voided records and notifications are saved after every
/// change (``PlayStateFile``: what the change changed, appended to a log) and survive a
/// restart; the access tokens are never saved, so a restart forgets them as a token cache
/// would.
struct PlayState: Sendable {
    /// Purchases by purchase token.
    var purchases = PlayRecords<PlayPurchase>()
    /// Subscriptions by purchase token.
    var subscriptions = PlayRecords<PlaySubscription>()
    /// Refunds, chargebacks and revocations, in the order the emulator recorded them:
    /// what `purchases.voidedpurchases.list` pages through (``recordVoided(_:)``).
    private(set) var voided: [PlayVoidedRecord] = []
    /// Access tokens the token endpoint issued, with when each expires.
    var accessTokens: [String: Date] = [:]
    /// Notifications published and not yet delivered, oldest first (``publish(_:)``,
    /// ``endPush(messageId:)``).
    private(set) var outbox: [PlayOutgoingNotification] = []
    /// The notifications of ``outbox`` not yet handed to the push sink in this process,
    /// oldest first (``takeDue()``): all of them after a restart.
    private var due: [PlayOutgoingNotification] = []
    /// What changed beside the records since the last save.
    private var voidedSinceSave = 0
    private var publishedSinceSave: [PlayOutgoingNotification] = []
    private var deliveredSinceSave: [String] = []

    /// An empty state.
    init() {}

    /// A state as saved: every notification of `outbox` is due.
    init(
        purchases: [String: PlayPurchase], subscriptions: [String: PlaySubscription], voided: [PlayVoidedRecord],
        outbox: [PlayOutgoingNotification]
    ) {
        self.purchases = PlayRecords(purchases)
        self.subscriptions = PlayRecords(subscriptions)
        self.voided = voided
        self.outbox = outbox
        due = outbox
    }

    /// Appends a voided record.
    mutating func recordVoided(_ record: PlayVoidedRecord) {
        voided.append(record)
        voidedSinceSave += 1
    }

    /// Appends a notification to the outbox, due for the sink.
    mutating func publish(_ notification: PlayOutgoingNotification) {
        outbox.append(notification)
        due.append(notification)
        publishedSinceSave.append(notification)
    }

    /// Takes the notifications due for the sink: each is handed over once in this process.
    mutating func takeDue() -> [PlayOutgoingNotification] {
        defer { due.removeAll() }
        return due
    }

    /// Forgets the notification `messageId`, whose push ended.
    mutating func endPush(messageId: String) {
        guard let index = outbox.firstIndex(where: { $0.messageId == messageId }) else { return }
        outbox.remove(at: index)
        due.removeAll { $0.messageId == messageId }
        deliveredSinceSave.append(messageId)
    }

    /// What changed in the saved part since the last save (``markSaved()``), as a line of
    /// the log after snapshot `generation`.
    func unsavedChange(generation: Int) -> PlayStateChange {
        PlayStateChange(
            generation: generation, purchases: purchases.changed, subscriptions: subscriptions.changed,
            voided: Array(voided.suffix(voidedSinceSave)), published: publishedSinceSave,
            delivered: deliveredSinceSave)
    }

    /// Marks everything saved.
    mutating func markSaved() {
        purchases.forgetChanges()
        subscriptions.forgetChanges()
        voidedSinceSave = 0
        publishedSinceSave.removeAll()
        deliveredSinceSave.removeAll()
    }

    /// Applies a saved change (a line of the log) while loading, through the same mutations
    /// that made it; the loader marks the result saved.
    mutating func replay(_ change: PlayStateChange) {
        for purchase in change.purchases { purchases[purchase.purchaseToken] = purchase }
        for subscription in change.subscriptions { subscriptions[subscription.purchaseToken] = subscription }
        for record in change.voided { recordVoided(record) }
        for notification in change.published { publish(notification) }
        for messageId in change.delivered { endPush(messageId: messageId) }
    }
}
