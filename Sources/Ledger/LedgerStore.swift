import Foundation

/// The purchase server's persistence: orders, purchases, the ledger and balances, the
/// outbox, the append-only history, notification intake and checkpoints.
///
/// Two implementations share one logical schema: ``SQLiteLedgerStore`` (embedded default)
/// and ``PostgresLedgerStore`` (many stateless server instances on one database). Every
/// write is one database transaction; races are decided by uniqueness constraints and
/// conditional updates inside the database, never by in-process locks, so any number of
/// processes may share one database.
///
/// It also keeps the support console's accounts, sessions and audit log (``StaffStore``)
/// and answers the console's reads (``SupportReads``), and keeps the entitlements that
/// non-consumables and subscriptions unlock (``EntitlementStore``) and the game's spends
/// from a wallet (``SpendStore``).
public protocol LedgerStore: StaffStore, SupportReads, EntitlementStore, SpendStore {
    /// Brings the schema up to date (versioned migrations; safe to run again, and from
    /// several processes at once).
    ///
    /// - Throws: ``LedgerError/schemaNewerThanBuild(version:newestKnown:)``, changing
    ///   nothing, when a newer release already migrated the ledger past what this build knows.
    func migrate() async throws

    /// The schema versions applied to the database, in order.
    func appliedMigrations() async throws -> [Int64]

    /// Releases connections. The store must not be used afterwards.
    func close() async throws

    // MARK: Orders

    /// Records a new order and appends an ``HistoryEventType/orderCreated`` event.
    /// Throws ``LedgerError/duplicateOrder(orderId:)`` when the order id or the app account
    /// token is taken. The token is stored lowercased.
    @discardableResult
    func createOrder(_ order: Order) async throws -> Order

    /// The order with this id.
    func order(id: String) async throws -> Order?

    /// The order carrying this app account token (compared case-insensitively).
    func order(appAccountToken: String) async throws -> Order?

    /// The player's orders, oldest first.
    func orders(playerId: String) async throws -> [Order]

    /// A page of the player's orders, oldest first.
    func orders(playerId: String, page: LedgerPageRequest) async throws -> LedgerPage<Order>

    // MARK: Delivery

    /// Delivers a transaction exactly once, in one database transaction: records the
    /// purchase (unique on the transaction id), appends one ``LedgerEntryKind/grant`` entry
    /// per item and updates the balances, marks the order fulfilled (when one is given),
    /// enqueues the outbox message (idempotency key = transaction id) and appends a
    /// ``HistoryEventType/delivered`` event.
    ///
    /// If the transaction id was delivered before, by any source and with any other fields,
    /// returns ``DeliveryResult/alreadyDelivered(_:)`` with the first purchase and changes
    /// nothing. Concurrent calls for one transaction id deliver once.
    ///
    /// Throws ``LedgerError/unknownOrder(orderId:)`` or
    /// ``LedgerError/orderBelongsToOtherPlayer(orderId:playerId:)`` (nothing written) when
    /// the order is missing or another player's. An order already fulfilled by another
    /// transaction does not stop delivery (Apple charged): the purchase is flagged
    /// ``PurchaseFlag/orderAlreadyFulfilled``.
    ///
    /// Throws ``LedgerError/transactionRevoked(transactionId:)`` (nothing written) when the
    /// latest refund-state notification recorded for a transaction never delivered is a
    /// REFUND or REVOKE of all of it. When it refunds a part (a prorated refund), the
    /// transaction is delivered and, in the same database transaction, that share taken back
    /// (``settleRefundState(transactionId:reason:)``'s movement, with the notice's type as
    /// reason): the returned purchase carries the ``Purchase/refundedShare``. The check and the
    /// write are one database transaction, serialized with
    /// ``settleRefundState(transactionId:reason:)`` of the same transaction id.
    ///
    /// A first delivery with an ``Delivery/entitlement`` also sets it, in the same database
    /// transaction, on the entitlement of the transaction's original transaction id: inserted
    /// for the delivery's player when absent (a stacked period's end computed under the
    /// player's stack lock); otherwise product, transaction, state, end and renewal intent
    /// are updated when the grant's ``EntitlementGrant/appleSignedAt`` is not older than the
    /// recorded one and something differs. The holder never changes here. Each change gets
    /// an ``HistoryEventType/entitlementChanged`` event and an ``EntitlementMessage``.
    func deliver(_ delivery: Delivery) async throws -> DeliveryResult

    /// Delivers a transaction reported with the order its app account token names, in one
    /// database transaction that also reads the player's balances (PostgreSQL: one
    /// statement, one round trip): the plain case of ``deliver(_:)``, with the same writes.
    ///
    /// It goes ahead only when the delivery names an order and unlocks no entitlement, the
    /// transaction was neither delivered nor notified before, and the order is
    /// ``Delivery/playerId``'s unfulfilled order for ``Delivery/productId`` carrying
    /// `appAccountToken`; it takes the transaction's refund-state lock as ``deliver(_:)``
    /// does. Otherwise it writes nothing and answers ``OrderDeliveryResult/needsBinding``:
    /// bind the transaction and call ``deliver(_:)``.
    func deliverByOrder(_ delivery: Delivery, appAccountToken: String) async throws -> OrderDeliveryResult

    /// Reverses all of a purchase, whatever Apple's recorded word: if (and only if) it was
    /// not refunded in whole, moves its refunded share to all of it (see
    /// ``settleRefundState(transactionId:reason:)``), appending the negative
    /// ``LedgerEntryKind/refund`` entries of what was left (balances may go below zero:
    /// reported in the posting), a ``HistoryEventType/refunded`` event and a
    /// ``RefundMessage``. Idempotent.
    func reverse(transactionId: String, reason: String) async throws -> ReversalResult

    /// Gives back all that was taken of a purchase, whatever Apple's recorded word: if (and
    /// only if) some share of it was refunded, moves its refunded share to none, appending
    /// positive ``LedgerEntryKind/refundReversed`` entries, a
    /// ``HistoryEventType/refundReversed`` event and a ``RefundMessage``. Idempotent.
    func regrant(transactionId: String) async throws -> RegrantResult

    /// Brings a delivered purchase's refunded share to Apple's latest recorded refund-state
    /// word, as the notices' signed dates order them (not their arrival): the share a REFUND
    /// or REVOKE carries (all of it unless a prorated refund's `revocationPercentage` says
    /// less; Apple's share is cumulative), none after a REFUND_REVERSED; with no notice
    /// recorded it changes nothing.
    ///
    /// What is taken back of each item is always its grant's share at the purchase's
    /// refunded share, rounded down (``RefundShare``), so a move from share `a` to `b` posts the
    /// difference: negative ``LedgerEntryKind/refund`` entries (with `reason`) when the share
    /// grows, positive ``LedgerEntryKind/refundReversed`` entries when it shrinks. Each move is
    /// its entries, one ``HistoryEventType/refunded`` or ``HistoryEventType/refundReversed``
    /// event and one outbox ``RefundMessage``; a purchase already at the share changes
    /// nothing, so settling again is idempotent. The purchase is ``PurchaseStatus/refunded``
    /// at a share of all of it, ``PurchaseStatus/delivered`` otherwise.
    ///
    /// The read of the notices and the purchase and the change are one database transaction
    /// under the transaction id's refund-state lock (PostgreSQL: a transaction-scoped
    /// advisory lock; SQLite: its single writer), which ``deliver(_:)`` takes too. Record a
    /// notice (``recordNotification(notificationUUID:type:subtype:transactionId:signedDate:revokedShare:receivedAt:)``,
    /// with the share it carries) before settling it: then of a delivery and a settlement, or
    /// two settlements, racing for one transaction id, the one that runs second sees what the
    /// first did.
    func settleRefundState(transactionId: String, reason: String) async throws -> RefundSettlement

    /// Support compensation: appends ``LedgerEntryKind/manual`` entries (amounts non-zero,
    /// either sign), updates the balances and appends an audited
    /// ``HistoryEventType/manualGrant`` event naming the actor, the reason and, when given,
    /// the path the grant came by (`via`, e.g. ``ManualGrantPath/adminAPI``).
    func grantManually(playerId: String, grants: Grants, reason: String, actor: String, via: String?) async throws
        -> LedgerPosting

    // MARK: Reads

    /// The purchase recorded for this transaction id.
    func purchase(transactionId: String) async throws -> Purchase?

    /// The player's purchases, oldest delivery first.
    func purchases(playerId: String) async throws -> [Purchase]

    /// The player's balances, item → amount (items never touched are absent).
    func wallet(playerId: String) async throws -> [String: Int64]

    /// The player's ledger entries, oldest first.
    func ledgerEntries(playerId: String) async throws -> [LedgerEntry]

    /// Everything that happened to the player, in time order: the player's events, plus
    /// events recorded before the player was known for transactions later delivered to
    /// them (e.g. the notification that preceded the delivery).
    func timeline(playerId: String) async throws -> [HistoryEvent]

    /// A page of ``timeline(playerId:)``, oldest first. A cursor's id is a history event id.
    func timeline(playerId: String, page: LedgerPageRequest) async throws -> LedgerPage<HistoryEvent>

    /// The events concerning a transaction, in time order. A device's event
    /// (``HistoryEventType/clientEvent``) is among them only when the player who posted it
    /// is the one the transaction was delivered to: an event naming another player's
    /// transaction stays on its poster's own timeline.
    func events(transactionId: String) async throws -> [HistoryEvent]

    /// The events concerning an order, in time order; a device's event only when posted by
    /// the order's player.
    func events(orderId: String) async throws -> [HistoryEvent]

    // MARK: History

    /// Appends an event to the history (append-only); returns it with its id.
    @discardableResult
    func appendEvent(_ event: HistoryEvent) async throws -> HistoryEvent

    /// Appends the device's purchase-flow events to the player's history (one
    /// ``HistoryEventType/clientEvent`` each, recorded at server time).
    func appendClientEvents(playerId: String, events: [ClientEvent]) async throws

    /// Appends the device's events like ``appendClientEvents(playerId:events:)``, then, in
    /// the same transaction, deletes the player's oldest client events beyond the `keep`
    /// latest: the purchase-flow log is support's evidence, not state, and no device may
    /// grow it without bound. Nothing else in the history is ever deleted.
    func appendClientEvents(playerId: String, events: [ClientEvent], keep: Int) async throws

    // MARK: Notifications

    /// Records an App Store Server Notification; `true` when it is new, `false` for a
    /// duplicate (same `notificationUUID`; nothing changes). A new notification also gets a
    /// ``HistoryEventType/notificationReceived`` event whose detail holds its type, subtype,
    /// UUID, Apple's `signedDate` (milliseconds), which orders notifications that arrive
    /// out of order, and `revokedShare`: the share of the transaction its signed transaction
    /// says Apple refunded or revoked (milliunits, 100,000 is all; `JWSTransactionDecodedPayload.revokedShare`),
    /// which a REFUND or REVOKE sets (all of it when `nil`).
    func recordNotification(
        notificationUUID: String,
        type: String,
        subtype: String?,
        transactionId: String?,
        signedDate: Date?,
        revokedShare: Int?,
        receivedAt: Date
    ) async throws -> Bool

    /// Marks a recorded notification processed (the first time only).
    func markNotificationProcessed(_ notificationUUID: String) async throws

    /// The recorded notification with this UUID.
    func notification(uuid: String) async throws -> NotificationRecord?

    // MARK: Consumption consent

    /// The player's consent to share consumption data with the App Store, as last recorded;
    /// `nil` when the player never gave or withdrew one.
    func consumptionConsent(playerId: String) async throws -> ConsumptionConsent?

    /// The player's consent as it counts for a consumption request about a transaction
    /// bought with the App Store account `appTransactionId`: a given consent that a recorded
    /// ``ConsentRescission`` of that account postdates (received at or after the consent)
    /// is withdrawn first, with a ``HistoryEventType/consumptionConsentWithdrawn`` event, in
    /// one database transaction. Without an account, like ``consumptionConsent(playerId:)``.
    func consumptionConsent(playerId: String, appTransactionId: String?) async throws -> ConsumptionConsent?

    /// Gives or withdraws a player's consent and appends a
    /// ``HistoryEventType/consumptionConsentGiven`` or
    /// ``HistoryEventType/consumptionConsentWithdrawn`` event, in one database transaction;
    /// ``ConsentChangeResult/unchanged(_:)`` (nothing written) when the consent already has
    /// that status (and, when given, the change names no other account). Concurrent changes
    /// of one player apply one after the other; the last one stands.
    func changeConsumptionConsent(_ change: ConsumptionConsentChange) async throws -> ConsentChangeResult

    /// Records Apple's `RESCIND_CONSENT` once (by `notificationUUID`) and withdraws every
    /// given consent that names its account, each with its event, in one database
    /// transaction; a rescission that matches no consent gets a
    /// ``HistoryEventType/consentRescissionUnmatched`` event and still counts later through
    /// ``consumptionConsent(playerId:appTransactionId:)``.
    func recordConsentRescission(_ rescission: ConsentRescission) async throws -> ConsentRescissionResult

    /// Records what the game server reports spent of a delivered purchase, replacing an
    /// earlier report, and appends a ``HistoryEventType/consumptionReported`` event; `nil`
    /// (nothing written) when no purchase has this transaction id.
    ///
    /// Throws ``LedgerError/invalidGrants(_:)`` (nothing written) for a share outside
    /// 0...100,000 or spent amounts the purchase's grant does not allow.
    func recordConsumption(transactionId: String, _ consumption: Consumption, reportedBy: String?) async throws
        -> ConsumptionReport?

    /// The latest consumption report of a purchase.
    func consumption(transactionId: String) async throws -> ConsumptionReport?

    // MARK: Outbox

    /// Claims up to `limit` undelivered messages due at `now`, oldest first: each is hidden
    /// from other callers until its claim ends (``OutboxMessage/nextAttemptAt``), so two
    /// workers never send one message at once; a worker that dies loses its claim then.
    func dueOutboxMessages(now: Date, limit: Int) async throws -> [OutboxMessage]

    /// Marks a message acknowledged by the receiver.
    func markOutboxDelivered(id: Int64) async throws

    /// Records a failed send: increments the attempt count and schedules the next attempt.
    func markOutboxFailed(id: Int64, nextAttemptAt: Date, error: String) async throws

    /// The outbox message for a transaction (its idempotency key).
    func outboxMessage(idempotencyKey: String) async throws -> OutboxMessage?

    // MARK: Checkpoints

    /// A named checkpoint's value (e.g. the reconciler's last notification-history date).
    func checkpoint(_ name: String) async throws -> String?

    /// Sets a named checkpoint.
    func setCheckpoint(_ name: String, value: String) async throws

    // MARK: Leases

    /// Takes the lease `name` for `holder` until `duration` from now, in one statement:
    /// inserted when absent, taken over when expired, renewed when `holder` holds it;
    /// another holder's unexpired lease is left alone. Returns the lease as it stands
    /// afterwards: `holder` holds it when it names `holder`.
    ///
    /// Every process on the database coordinates through it (the reconciler runs one pass
    /// at a time across instances); expiry is judged by the clocks of the processes, so a
    /// lease should last far longer than their clocks can differ.
    func acquireLease(_ name: String, holder: String, duration: TimeInterval) async throws -> Lease

    /// Ends the lease if `holder` holds it; does nothing otherwise.
    func releaseLease(_ name: String, holder: String) async throws

    /// Moves the numeric checkpoint `name` forward to `value`, in one transaction, only
    /// while `lease`'s holder still holds it unexpired: never backwards (a value at or
    /// below the stored one leaves it, ``CheckpointAdvance/unchanged``), never by a holder
    /// that lost its lease (``CheckpointAdvance/leaseLost``, nothing written). A stored
    /// value that is not a number is replaced.
    func advanceCheckpoint(_ name: String, to value: Int64, holding lease: Lease) async throws -> CheckpointAdvance
}

extension LedgerStore {
    /// ``grantManually(playerId:grants:reason:actor:via:)`` naming no path (the support
    /// console's grants, audited in the console's own log).
    public func grantManually(playerId: String, grants: Grants, reason: String, actor: String) async throws
        -> LedgerPosting
    {
        try await grantManually(playerId: playerId, grants: grants, reason: reason, actor: actor, via: nil)
    }
}
