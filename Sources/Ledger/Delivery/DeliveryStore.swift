import Foundation

/// The ledger's deliveries: each store transaction's goods granted once, to one player.
public protocol DeliveryStore: Sendable {
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
    /// (``settleRefundState(store:transactionId:reason:)``'s movement, with the notice's type as
    /// reason): the returned purchase carries the ``Purchase/refundedShare``. The check and the
    /// write are one database transaction, serialized with
    /// ``settleRefundState(store:transactionId:reason:)`` of the same transaction id.
    ///
    /// A first delivery with an ``Delivery/entitlement`` also sets it, in the same database
    /// transaction, on the entitlement of the transaction's original transaction id: inserted
    /// for the delivery's player when absent (a stacked period's end computed under the
    /// player's stack lock); otherwise product, transaction, state, end and renewal intent
    /// are updated when the grant's ``EntitlementGrant/signedAt`` is not older than the
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
    /// `appAccountToken`; it takes the transaction's transaction lock as ``deliver(_:)``
    /// does. Otherwise it writes nothing and answers ``OrderDeliveryResult/needsBinding``:
    /// bind the transaction and call ``deliver(_:)``.
    func deliverByOrder(_ delivery: Delivery, appAccountToken: String) async throws -> OrderDeliveryResult

    /// The purchase recorded for the store's transaction id.
    func purchase(store: Store, transactionId: String) async throws -> Purchase?

    /// The player's purchases, oldest delivery first.
    func purchases(playerId: String) async throws -> [Purchase]
}
