import Foundation

extension Purchase {
    /// Reads a purchase from a row with ``PurchaseTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<PurchaseTable>(row)
        self.init(
            store: try row.enumeration(Store.self, .store),
            transactionId: try row.requiredText(.transactionId),
            originalTransactionId: try row.requiredText(.originalTransactionId),
            playerId: try row.requiredText(.playerId),
            orderId: try row.text(.orderId),
            productId: try row.requiredText(.productId),
            quantity: Int(try row.requiredInteger(.quantity)),
            environment: try row.enumeration(PurchaseEnvironment.self, .environment),
            source: try row.enumeration(DeliverySource.self, .source),
            flags: Set(try LedgerJSON.decode([String].self, from: try row.requiredText(.flags), column: "flags")),
            grants: try LedgerJSON.decode(Grants.self, from: try row.requiredText(.grants), column: "grants"),
            status: try row.enumeration(PurchaseStatus.self, .status),
            purchaseDate: try row.requiredTimestamp(.purchaseDate),
            deliveredAt: try row.requiredTimestamp(.deliveredAt),
            refundedShare: Int(try row.requiredInteger(.refundedShare)),
            refundedAt: try row.timestamp(.refundedAt),
            refundReason: try row.text(.refundReason)
        )
    }
}
