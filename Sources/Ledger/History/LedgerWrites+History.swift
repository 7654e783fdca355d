import Foundation

extension LedgerWrites {
    /// Appends the device's purchase-flow events, one ``HistoryEventType/clientEvent`` each.
    static func appendClientEvents(
        _ events: [ClientEvent],
        playerId: String,
        receivedAt: Date
    ) -> LedgerOperation<Void> {
        .reduce(events, into: ()) { _, event in
            .execute(
                try LedgerSQL.insertEvent(LedgerRules.clientEvent(event, playerId: playerId, receivedAt: receivedAt)))
        }
    }
}
