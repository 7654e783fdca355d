extension LedgerSchema {
    /// `history_events_unowned` (version 15; issue 32, docs/PERFORMANCE.md "Years of
    /// history"): the events recorded without a player (notifications, the App Store's
    /// finishing, a report awaited), by transaction and time.
    ///
    /// A player's timeline is their own events and the player-less events of the
    /// transactions delivered to them (``LedgerSQL/timeline(playerId:)``). Without this index
    /// the second part was read through `history_events_by_player`'s range of `NULL` player
    /// ids: every player-less event of the ledger, most of them other players', walked for
    /// each page (2 s at a million purchases). With it, the player's purchases lead and each
    /// of their transactions is one probe of a small partial index. Since version 22 the
    /// timeline reads `player_unowned_events` (``playerUnownedEvents``) instead, and this
    /// index serves that table's `purchases` trigger and backfill.
    ///
    /// PostgreSQL builds it `CONCURRENTLY` (``LedgerMigration/postgresConcurrentIndexes``);
    /// SQLite in the migration's transaction, which holds the single writer.
    static let unownedEvents = LedgerMigration(
        version: 15,
        name: "player-less events by transaction",
        sqlite: [unownedEventsIndex].map { "CREATE INDEX \($0.name) \($0.definition)" },
        postgres: [],
        postgresConcurrentIndexes: [unownedEventsIndex]
    )

    private static let unownedEventsIndex = LedgerMigration.ConcurrentIndex(
        name: "history_events_unowned",
        definition: "ON history_events (transaction_id, created_at, id) WHERE player_id IS NULL")
}
