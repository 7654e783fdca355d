extension LedgerSchema {
    /// The history index by transaction also keyed by the event's type, so a lookup of one
    /// transaction's events of one type (``LedgerSQL/seenBefore(store:transactionId:)`` on every
    /// delivery, ``LedgerSQL/refundMovements(store:transactionId:)`` on every refund movement; until
    /// migration 11 also the refund-state notices, now in `refund_notices`) is one index range
    /// on both databases.
    ///
    /// With the index on (`transaction_id`, `created_at`, `id`), SQLite's planner (which
    /// keeps no statistics here) rated it equal to `history_events_by_type` and took the
    /// narrower one: each delivery then walked every `notification_received` event in the
    /// ledger, a cost that grew with the ledger (found by `storekeeper simulate` slowing from
    /// 85 to 51 purchases a second within 30,000 purchases; see docs/PERFORMANCE.md).
    /// Two equality columns make this index the planner's choice; the index replaces the
    /// old one, so a write still updates as many indexes as before.
    static let eventLookup = LedgerMigration(
        version: 9,
        name: "history events by transaction and type",
        sqlite: [
            "DROP INDEX history_events_by_transaction",
            "CREATE INDEX history_events_by_transaction ON history_events (transaction_id, type, created_at, id)",
        ],
        postgres: [
            "DROP INDEX history_events_by_transaction",
            "CREATE INDEX history_events_by_transaction ON history_events (transaction_id, type, created_at, id)",
        ]
    )
}
