import Foundation

extension LedgerRules {
    /// The history event holding one client event.
    static func clientEvent(_ event: ClientEvent, playerId: String, receivedAt: Date) -> HistoryEvent {
        var detail = event.attributes
        detail["name"] = event.name
        detail["occurredAt"] = String(event.occurredAt.ledgerMilliseconds)
        return HistoryEvent(
            type: .clientEvent,
            playerId: playerId,
            orderId: event.orderId,
            transactionId: event.transactionId,
            detail: detail,
            createdAt: receivedAt
        )
    }
}
