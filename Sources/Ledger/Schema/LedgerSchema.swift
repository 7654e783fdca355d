/// The ledger's schema: the migrations, oldest first.
///
/// Tables (same columns and constraints on both databases; times are `timestamptz` on
/// PostgreSQL and epoch milliseconds on SQLite):
/// - `orders` — primary key `order_id`, UNIQUE `app_account_token`.
/// - `purchases` — primary key `transaction_id` (exactly-once delivery), `order_id`
///   references `orders` (checked at commit); `refunded_share` (version 4) in milliunits.
/// - `balances` — primary key (`player_id`, `item`), materialized from the ledger.
/// - `ledger_entries` — append-only, `transaction_id` references `purchases`.
/// - `outbox` — UNIQUE `idempotency_key` (the transaction id; `<id>:refund:<n>` for refunds;
///   `entitlement:…` and `entitlement-transfer:…` for entitlements, see ``EntitlementMessage``).
/// - `history_events` — append-only.
/// - `notifications` — primary key `notification_uuid` (Apple's duplicates).
/// - `checkpoints` — primary key `name`.
/// - `consumption_consents`, `consent_rescissions`, `consumption_reports` (version 3): see
///   ``consumptionConsent``.
/// - `staff_accounts`, `staff_sessions`, `audit_log` (version 5, the support console):
///   see ``supportConsole``.
/// - `entitlements` (version 6): see ``entitlements``; its recheck columns (version 7): see
///   ``subscriptionRechecks``.
/// - `spends` (version 10): see ``spends``.
/// - `refund_notices` (version 11): see ``refundNotices``.
/// - Indexes for a ledger with years of history (version 13): see ``historyIndexes``.
/// - `known_players` and its trigram index (version 14): see ``knownPlayers``.
/// - Player-less events by transaction (version 15): see ``unownedEvents``.
/// - The index of Google Play purchases by delivery (version 16): see ``playSettlementIndex``.
/// - `owed_transactions`, the owed queue kept by triggers (version 17): see ``owedTransactions``.
/// - `delivery_days`, deliveries counted per UTC day and source, and `delivery_latencies`,
///   per UTC day and bucket of their time from charge to delivery (`delivery_latency_buckets`)
///   (version 18): see ``deliveryDays``.
/// - `player_refunds`, refunded purchases counted per player (version 19): see ``refundCounts``.
/// - `purchase_days` and `refund_days`, purchases and refunds counted per day (version 20): see
///   ``revenueDays``.
/// - The refund reversals by player (version 21): see ``reversalIndex``.
/// - `player_unowned_events`, the player-less events of each player's transactions, and the
///   player's events by id (version 22): see ``playerUnownedEvents``.
/// - A player's notifications and manual postings by player (version 23): see
///   ``playerPageIndexes``.
/// - `player_entry_totals` and `player_purchase_groups`, a player's sums kept (version 24): see
///   ``playerTotals``.
/// - The refund and reversal events by time (version 25): see ``refundEventsIndex``.
enum LedgerSchema {
    /// Every migration, in version order.
    static let migrations: [LedgerMigration] = [
        initial, clientEventRetention, consumptionConsent, partialRefunds, supportConsole, entitlements,
        subscriptionRechecks, orderDelivery, eventLookup, spends, refundNotices, storeIdentity, historyIndexes,
        knownPlayers, unownedEvents, playSettlementIndex, owedTransactions,
        deliveryDays, refundCounts, revenueDays, reversalIndex, playerUnownedEvents, playerPageIndexes,
        playerTotals, refundEventsIndex,
    ]

    /// The key of the PostgreSQL advisory lock that serializes migrations across
    /// processes starting at once.
    static let postgresMigrationLockKey: Int64 = 0x5354_4B50_4C44_4752  // "STKPLDGR"

    static let initial = LedgerMigration(
        version: 1,
        name: "initial schema",
        sqlite: [
            """
            CREATE TABLE orders (
                order_id TEXT NOT NULL PRIMARY KEY,
                player_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                quantity INTEGER NOT NULL CHECK (quantity > 0),
                app_account_token TEXT NOT NULL UNIQUE,
                status TEXT NOT NULL CHECK (status IN ('created', 'fulfilled')),
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                fulfilled_by TEXT,
                fulfilled_at INTEGER
            )
            """,
            "CREATE INDEX orders_by_player ON orders (player_id, created_at)",
            """
            CREATE TABLE purchases (
                transaction_id TEXT NOT NULL PRIMARY KEY,
                original_transaction_id TEXT NOT NULL,
                player_id TEXT NOT NULL,
                order_id TEXT REFERENCES orders (order_id) DEFERRABLE INITIALLY DEFERRED,
                product_id TEXT NOT NULL,
                quantity INTEGER NOT NULL,
                environment TEXT NOT NULL,
                source TEXT NOT NULL,
                flags TEXT NOT NULL,
                grants TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('delivered', 'refunded')),
                purchase_date INTEGER NOT NULL,
                delivered_at INTEGER NOT NULL,
                refunded_at INTEGER,
                refund_reason TEXT
            )
            """,
            "CREATE INDEX purchases_by_player ON purchases (player_id, delivered_at)",
            "CREATE INDEX purchases_by_order ON purchases (order_id)",
            "CREATE INDEX purchases_by_original_transaction ON purchases (original_transaction_id)",
            """
            CREATE TABLE balances (
                player_id TEXT NOT NULL,
                item TEXT NOT NULL,
                amount INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (player_id, item)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE ledger_entries (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                player_id TEXT NOT NULL,
                item TEXT NOT NULL,
                amount INTEGER NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('grant', 'refund', 'refund_reversed', 'manual')),
                transaction_id TEXT REFERENCES purchases (transaction_id),
                reason TEXT,
                actor TEXT,
                balance_after INTEGER NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX ledger_entries_by_player ON ledger_entries (player_id, id)",
            "CREATE INDEX ledger_entries_by_transaction ON ledger_entries (transaction_id)",
            """
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                idempotency_key TEXT NOT NULL UNIQUE,
                player_id TEXT NOT NULL,
                transaction_id TEXT,
                payload TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                delivered_at INTEGER,
                last_error TEXT
            )
            """,
            "CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE delivered_at IS NULL",
            """
            CREATE TABLE history_events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                type TEXT NOT NULL,
                player_id TEXT,
                order_id TEXT,
                transaction_id TEXT,
                detail TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX history_events_by_player ON history_events (player_id, created_at, id)",
            "CREATE INDEX history_events_by_order ON history_events (order_id, created_at, id)",
            "CREATE INDEX history_events_by_transaction ON history_events (transaction_id, created_at, id)",
            """
            CREATE TABLE notifications (
                notification_uuid TEXT NOT NULL PRIMARY KEY,
                notification_type TEXT NOT NULL,
                subtype TEXT,
                transaction_id TEXT,
                received_at INTEGER NOT NULL,
                processed_at INTEGER
            )
            """,
            "CREATE INDEX notifications_by_transaction ON notifications (transaction_id)",
            """
            CREATE TABLE checkpoints (
                name TEXT NOT NULL PRIMARY KEY,
                value TEXT NOT NULL,
                updated_at INTEGER NOT NULL
            )
            """,
        ],
        postgres: [
            """
            CREATE TABLE orders (
                order_id TEXT NOT NULL PRIMARY KEY,
                player_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                quantity BIGINT NOT NULL CHECK (quantity > 0),
                app_account_token TEXT NOT NULL UNIQUE,
                status TEXT NOT NULL CHECK (status IN ('created', 'fulfilled')),
                created_at TIMESTAMPTZ NOT NULL,
                expires_at TIMESTAMPTZ NOT NULL,
                fulfilled_by TEXT,
                fulfilled_at TIMESTAMPTZ
            )
            """,
            "CREATE INDEX orders_by_player ON orders (player_id, created_at)",
            """
            CREATE TABLE purchases (
                transaction_id TEXT NOT NULL PRIMARY KEY,
                original_transaction_id TEXT NOT NULL,
                player_id TEXT NOT NULL,
                order_id TEXT REFERENCES orders (order_id) DEFERRABLE INITIALLY DEFERRED,
                product_id TEXT NOT NULL,
                quantity BIGINT NOT NULL,
                environment TEXT NOT NULL,
                source TEXT NOT NULL,
                flags TEXT NOT NULL,
                grants TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('delivered', 'refunded')),
                purchase_date TIMESTAMPTZ NOT NULL,
                delivered_at TIMESTAMPTZ NOT NULL,
                refunded_at TIMESTAMPTZ,
                refund_reason TEXT
            )
            """,
            "CREATE INDEX purchases_by_player ON purchases (player_id, delivered_at)",
            "CREATE INDEX purchases_by_order ON purchases (order_id)",
            "CREATE INDEX purchases_by_original_transaction ON purchases (original_transaction_id)",
            """
            CREATE TABLE balances (
                player_id TEXT NOT NULL,
                item TEXT NOT NULL,
                amount BIGINT NOT NULL,
                updated_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (player_id, item)
            )
            """,
            """
            CREATE TABLE ledger_entries (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                player_id TEXT NOT NULL,
                item TEXT NOT NULL,
                amount BIGINT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('grant', 'refund', 'refund_reversed', 'manual')),
                transaction_id TEXT REFERENCES purchases (transaction_id),
                reason TEXT,
                actor TEXT,
                balance_after BIGINT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX ledger_entries_by_player ON ledger_entries (player_id, id)",
            "CREATE INDEX ledger_entries_by_transaction ON ledger_entries (transaction_id)",
            """
            CREATE TABLE outbox (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                idempotency_key TEXT NOT NULL UNIQUE,
                player_id TEXT NOT NULL,
                transaction_id TEXT,
                payload TEXT NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0,
                next_attempt_at TIMESTAMPTZ NOT NULL,
                created_at TIMESTAMPTZ NOT NULL,
                delivered_at TIMESTAMPTZ,
                last_error TEXT
            )
            """,
            "CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE delivered_at IS NULL",
            """
            CREATE TABLE history_events (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                type TEXT NOT NULL,
                player_id TEXT,
                order_id TEXT,
                transaction_id TEXT,
                detail TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX history_events_by_player ON history_events (player_id, created_at, id)",
            "CREATE INDEX history_events_by_order ON history_events (order_id, created_at, id)",
            "CREATE INDEX history_events_by_transaction ON history_events (transaction_id, created_at, id)",
            """
            CREATE TABLE notifications (
                notification_uuid TEXT NOT NULL PRIMARY KEY,
                notification_type TEXT NOT NULL,
                subtype TEXT,
                transaction_id TEXT,
                received_at TIMESTAMPTZ NOT NULL,
                processed_at TIMESTAMPTZ
            )
            """,
            "CREATE INDEX notifications_by_transaction ON notifications (transaction_id)",
            """
            CREATE TABLE checkpoints (
                name TEXT NOT NULL PRIMARY KEY,
                value TEXT NOT NULL,
                updated_at TIMESTAMPTZ NOT NULL
            )
            """,
        ]
    )

    /// The index that keeps per-player client-event retention
    /// (``LedgerStore/appendClientEvents(playerId:events:keep:)``) one index range scan.
    static let clientEventRetention = LedgerMigration(
        version: 2,
        name: "client event retention index",
        sqlite: [
            "CREATE INDEX history_client_events_by_player ON history_events (player_id, id) WHERE type = 'client_event'"
        ],
        postgres: [
            "CREATE INDEX history_client_events_by_player ON history_events (player_id, id) WHERE type = 'client_event'"
        ]
    )
}
