/// The rows of every table a fill writes, gathered player by player and loaded in one
/// transaction (``BulkLoading/bulkLoad(_:)``) when enough have gathered.
struct HistoryFillBatch: Sendable {
    var orders = BulkRows(
        OrderTable.self,
        [.orderId, .playerId, .productId, .quantity, .appAccountToken, .status, .createdAt, .expiresAt, .fulfilledBy],
        extra: ["fulfilled_at"])
    var purchases = BulkRows(PurchaseTable.self, PurchaseTable.Column.allCases)
    var ledgerEntries = BulkRows(
        LedgerEntryTable.self,
        [.playerId, .item, .amount, .kind, .transactionId, .reason, .actor, .balanceAfter, .createdAt])
    var balances = BulkRows(BalanceTable.self, BalanceTable.Column.allCases)
    var outbox = BulkRows(
        OutboxTable.self,
        [.idempotencyKey, .playerId, .transactionId, .payload, .attempts, .nextAttemptAt, .createdAt, .deliveredAt])
    var refundNotices = BulkRows(RefundNoticeTable.self, RefundNoticeTable.Column.allCases)
    var history = BulkRows(
        HistoryEventTable.self, [.type, .playerId, .orderId, .transactionId, .store, .detail, .createdAt])
    var notifications = BulkRows(NotificationTable.self, NotificationTable.Column.allCases)
    var entitlements = BulkRows(EntitlementTable.self, EntitlementTable.Column.allCases)
    var consents = BulkRows(ConsumptionConsentTable.self, ConsumptionConsentTable.Column.allCases)
    var audit = BulkRows(AuditLogTable.self, [.actor, .action, .target, .detail, .address, .createdAt])

    /// Every table, each after those it references (orders before purchases, purchases
    /// before the ledger entries and refund notices), refund notices before the history
    /// events whose trigger would otherwise add them.
    var tables: [BulkRows] {
        [
            orders, purchases, ledgerEntries, balances, outbox, refundNotices, history, notifications, entitlements,
            consents, audit,
        ]
    }
}
