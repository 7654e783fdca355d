extension LedgerSchema {
    /// `history_events_notifications_by_player` and `ledger_entries_manual_by_player` (version
    /// 23; issue 32, docs/PERFORMANCE.md "Years of history"): the player page's notifications
    /// and manual postings read from the player's notifications and manual entries alone.
    ///
    /// - `history_events_notifications_by_player (player_id, id)`, only the notification
    ///   events (``HistoryEventType/notificationTypes``) that name a player: the own half of
    ///   the notifications section's newest-first read
    ///   (``LedgerSQL/timelineNewestFirst(playerId:beforeId:limit:types:dialect:)``). Through
    ///   `history_events_by_player_id` it walked every event of the player to find them: a
    ///   player with 50,000 purchases has over 200,000 events and few or no notifications of
    ///   their own (a notification usually arrives before the purchase names its player),
    ///   10,548 buffers and up to 100 ms on PostgreSQL at 10M.
    /// - `ledger_entries_manual_by_player (player_id, created_at, COALESCE(actor, ''),
    ///   COALESCE(reason, ''))`, only the manual entries: the player's postings
    ///   (``ManualPostingKey``) in their key's order, which the posting count
    ///   (``LedgerSQL/playerCounts(playerId:)``) and the newest postings
    ///   (``LedgerSQL/newestManualEntries(playerId:limit:)``) read. Through
    ///   `ledger_entries_by_player` both walked every entry of the player (a grant per item
    ///   of every purchase) to find the manual ones.
    ///
    /// Partial indexes rather than counts kept by triggers, as ``reversalIndex``: each read
    /// stays over the rows themselves, a player has few notifications and manual entries of
    /// their own, and no write but theirs touches the indexes. Both conditions name their
    /// values as literals, which the reads repeat (a bound parameter does not prove a
    /// partial index's condition to either planner). PostgreSQL builds them `CONCURRENTLY`
    /// (``LedgerMigration/postgresConcurrentIndexes``); SQLite in the migration's
    /// transaction, which holds the single writer.
    static let playerPageIndexes = LedgerMigration(
        version: 23,
        name: "a player's notifications and manual postings",
        sqlite: [notificationsByPlayer, manualPostingsByPlayer].map { "CREATE INDEX \($0.name) \($0.definition)" },
        postgres: [],
        postgresConcurrentIndexes: [notificationsByPlayer, manualPostingsByPlayer]
    )

    /// The notification events of players, the same on both databases. The condition is the
    /// text ``LedgerSQL/typeCondition(_:_:)`` makes of ``HistoryEventType/notificationTypes`` on `type`.
    static let notificationsByPlayer = LedgerMigration.ConcurrentIndex(
        name: "history_events_notifications_by_player",
        definition: """
            ON history_events (player_id, id)
            WHERE type IN ('notification_received', 'notification_not_acted_on') AND player_id IS NOT NULL
            """)

    /// The manual entries by player and posting, the same on both databases.
    static let manualPostingsByPlayer = LedgerMigration.ConcurrentIndex(
        name: "ledger_entries_manual_by_player",
        definition: """
            ON ledger_entries (player_id, created_at, (COALESCE(actor, '')), (COALESCE(reason, '')))
            WHERE kind = 'manual'
            """)
}
