extension LedgerSchema {
    /// `history_events_refunds_by_time` (version 25; issue 32, docs/PERFORMANCE.md "Years of
    /// history"): the refund and reversal events in the order the overview reads them
    /// (``LedgerSQL/refundEvents(since:limit:)``: from a date on, oldest first, a limit),
    /// with the type, so that the read takes them in order from the index alone, with no sort
    /// and no visit of the table for each id. Through `history_events_by_type (type,
    /// created_at)` it read every refund and reversal of its 30 days, each from the table for
    /// its id, and sorted them all: 5,544 buffers and up to 131 ms cold on PostgreSQL at 10M,
    /// the overview's slowest statement.
    ///
    /// A partial index, as ``reversalIndex``: only the two types, few beside the ledger's
    /// events; its condition names them as literals, which the read repeats. PostgreSQL builds
    /// it `CONCURRENTLY` (``LedgerMigration/postgresConcurrentIndexes``). SQLite needs none:
    /// its `history_events_by_type` holds the id (the rowid), so the read visits no row of the
    /// table, and a limit that cuts stops each type's walk early (its early out of an `IN`
    /// under `ORDER BY … LIMIT`; tested).
    static let refundEventsIndex = LedgerMigration(
        version: 25,
        name: "refund events by time",
        sqlite: [],
        postgres: [],
        postgresConcurrentIndexes: [refundsByTime]
    )

    /// The index of ``refundEventsIndex``, the same on both databases. The condition is the
    /// text ``LedgerSQL/typeCondition(_:_:)`` makes of ``LedgerSQL/refundEventTypes`` on `type`.
    static let refundsByTime = LedgerMigration.ConcurrentIndex(
        name: "history_events_refunds_by_time",
        definition: "ON history_events (created_at, id, type) WHERE type IN ('refunded', 'refund_reversed')")
}
