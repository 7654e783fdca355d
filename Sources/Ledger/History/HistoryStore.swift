import Foundation

/// The ledger's append-only history: what happened to players, orders and transactions.
public protocol HistoryStore: Sendable {
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
}
