extension LedgerSchema {
    /// `history_events_reversals_by_player` (version 21; issue 32, docs/PERFORMANCE.md
    /// "Years of history"): the `refund_reversed` events by player, so that the owed queue's
    /// refund signals (``LedgerSQL/refundSignals(minimumRefunds:limit:)``) count a listed
    /// player's reversals from that player's reversals alone. Through
    /// `history_events_by_player` the count walked every event of each of up to 200 players
    /// (a whale has hundreds of thousands).
    ///
    /// A partial index rather than a count kept in `player_refunds` by a trigger: the
    /// statement stays the exact `COUNT(*)` of the events (nothing kept that could drift from
    /// them, no trigger on every write of `history_events`), it reads one entry per reversal
    /// (a player has few), the events of every other type are not in the index, and the
    /// migration is one index with no backfill. PostgreSQL builds it `CONCURRENTLY`
    /// (``LedgerMigration/postgresConcurrentIndexes``), which holds every event committed
    /// before or during the build exactly once without a lock of the migration's own; SQLite
    /// in the migration's transaction, which holds the single writer. The condition names the
    /// type as a literal, which the read repeats (a bound parameter does not prove a partial
    /// index's condition to either planner).
    static let reversalIndex = LedgerMigration(
        version: 21,
        name: "refund reversals by player",
        sqlite: ["CREATE INDEX \(reversalsByPlayer.name) \(reversalsByPlayer.definition)"],
        postgres: [],
        postgresConcurrentIndexes: [reversalsByPlayer]
    )

    /// The index of ``reversalIndex``, the same on both databases.
    static let reversalsByPlayer = LedgerMigration.ConcurrentIndex(
        name: "history_events_reversals_by_player",
        definition: "ON history_events (player_id) WHERE type = '\(HistoryEventType.refundReversed.rawValue)'")
}
