import Foundation

extension HistoryEvent {
    /// Reads an event from a row with ``HistoryEventTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<HistoryEventTable>(row)
        let transactionId = try row.text(.transactionId)
        let store = try row.text(.store).map { raw in
            guard let store = Store(rawValue: raw) else {
                throw LedgerError.corruptRow("store has unknown value \"\(raw)\"")
            }
            return store
        }
        self.init(
            id: try row.requiredInteger(.id),
            type: HistoryEventType(rawValue: try row.requiredText(.type)),
            playerId: try row.text(.playerId),
            orderId: try row.text(.orderId),
            transactionId: transactionId,
            store: transactionId == nil ? nil : store ?? .appStore,
            detail: try LedgerJSON.decode(
                [String: String].self, from: try row.requiredText(.detail), column: "detail"),
            createdAt: try row.requiredTimestamp(.createdAt)
        )
    }
}
