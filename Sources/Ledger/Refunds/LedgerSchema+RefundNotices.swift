extension LedgerSchema {
    /// Refund notices (version 11): what each store notice said about a transaction's refund
    /// state, in the ledger's terms, so that refund decisions read a record of their own
    /// instead of the history's JSON.
    ///
    /// - `refund_notices` — primary key `id` (arrival order), UNIQUE `notice_id` (the store's
    ///   id for the notice: Apple's `notificationUUID`): the transaction, the `kind`
    ///   (`refund`, `revoke`, `reversal`), the cumulative `refunded_share` it sets
    ///   (milliunits, 0 for a reversal), the store's own word for it (`reason`, e.g. Apple's
    ///   `REFUND`, which a refund it settles records), the store's signing time `signed_at`
    ///   (`NULL` when the notice carried none) and `received_at`. Indexed by transaction.
    /// - Filled from the refund-state notifications already in `history_events`, in their
    ///   order, with the rules the ledger read them by: a REFUND or REVOKE without a share
    ///   refunds all of it, a share is clamped to 0...100,000.
    /// - A trigger on `history_events` records the same for every notification event an
    ///   instance of the previous release writes during a rolling upgrade (it writes no
    ///   notice of its own); this release writes its notice first, so the trigger's insert
    ///   finds it and does nothing.
    static let refundNotices = LedgerMigration(
        version: 11,
        name: "refund notices",
        sqlite: [
            """
            CREATE TABLE refund_notices (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                notice_id TEXT NOT NULL UNIQUE,
                transaction_id TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('refund', 'revoke', 'reversal')),
                refunded_share INTEGER NOT NULL CHECK (refunded_share BETWEEN 0 AND 100000),
                reason TEXT NOT NULL,
                signed_at INTEGER,
                received_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX refund_notices_by_transaction ON refund_notices (transaction_id, id)",
            """
            INSERT OR IGNORE INTO refund_notices
                (notice_id, transaction_id, kind, refunded_share, reason, signed_at, received_at)
            SELECT json_extract(detail, '$.notificationUUID'), transaction_id,
                CASE json_extract(detail, '$.notificationType')
                    WHEN 'REFUND' THEN 'refund' WHEN 'REVOKE' THEN 'revoke' ELSE 'reversal' END,
                CASE WHEN json_extract(detail, '$.notificationType') = 'REFUND_REVERSED' THEN 0
                    ELSE min(max(coalesce(CAST(json_extract(detail, '$.revokedShare') AS INTEGER), 100000), 0), 100000)
                    END,
                json_extract(detail, '$.notificationType'), CAST(json_extract(detail, '$.signedDate') AS INTEGER),
                created_at
            FROM history_events
            WHERE type = 'notification_received' AND transaction_id IS NOT NULL
                AND json_extract(detail, '$.notificationType') IN ('REFUND', 'REVOKE', 'REFUND_REVERSED')
                AND json_extract(detail, '$.notificationUUID') IS NOT NULL
            ORDER BY id
            """,
            """
            CREATE TRIGGER refund_notices_from_history AFTER INSERT ON history_events
            WHEN NEW.type = 'notification_received' AND NEW.transaction_id IS NOT NULL
                AND json_extract(NEW.detail, '$.notificationType') IN ('REFUND', 'REVOKE', 'REFUND_REVERSED')
                AND json_extract(NEW.detail, '$.notificationUUID') IS NOT NULL
            BEGIN
                INSERT OR IGNORE INTO refund_notices
                    (notice_id, transaction_id, kind, refunded_share, reason, signed_at, received_at)
                VALUES (
                    json_extract(NEW.detail, '$.notificationUUID'), NEW.transaction_id,
                    CASE json_extract(NEW.detail, '$.notificationType')
                        WHEN 'REFUND' THEN 'refund' WHEN 'REVOKE' THEN 'revoke' ELSE 'reversal' END,
                    CASE WHEN json_extract(NEW.detail, '$.notificationType') = 'REFUND_REVERSED' THEN 0
                        ELSE min(max(coalesce(CAST(json_extract(NEW.detail, '$.revokedShare') AS INTEGER), 100000), 0),
                            100000)
                        END,
                    json_extract(NEW.detail, '$.notificationType'),
                    CAST(json_extract(NEW.detail, '$.signedDate') AS INTEGER), NEW.created_at);
            END
            """,
        ],
        postgres: [
            """
            CREATE TABLE refund_notices (
                id BIGSERIAL PRIMARY KEY,
                notice_id TEXT NOT NULL UNIQUE,
                transaction_id TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('refund', 'revoke', 'reversal')),
                refunded_share BIGINT NOT NULL CHECK (refunded_share BETWEEN 0 AND 100000),
                reason TEXT NOT NULL,
                signed_at TIMESTAMPTZ,
                received_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX refund_notices_by_transaction ON refund_notices (transaction_id, id)",
            """
            INSERT INTO refund_notices (notice_id, transaction_id, kind, refunded_share, reason, signed_at, received_at)
            SELECT detail::json ->> 'notificationUUID', transaction_id,
                CASE detail::json ->> 'notificationType'
                    WHEN 'REFUND' THEN 'refund' WHEN 'REVOKE' THEN 'revoke' ELSE 'reversal' END,
                CASE WHEN detail::json ->> 'notificationType' = 'REFUND_REVERSED' THEN 0
                    ELSE LEAST(GREATEST(COALESCE((detail::json ->> 'revokedShare')::BIGINT, 100000), 0), 100000)
                    END,
                detail::json ->> 'notificationType',
                TIMESTAMPTZ 'epoch' + (detail::json ->> 'signedDate')::BIGINT * INTERVAL '1 millisecond',
                created_at
            FROM history_events
            WHERE type = 'notification_received' AND transaction_id IS NOT NULL
                AND detail::json ->> 'notificationType' IN ('REFUND', 'REVOKE', 'REFUND_REVERSED')
                AND detail::json ->> 'notificationUUID' IS NOT NULL
            ORDER BY id
            ON CONFLICT (notice_id) DO NOTHING
            """,
            """
            CREATE FUNCTION storekeeper_refund_notice_from_history() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.detail::json ->> 'notificationType' IN ('REFUND', 'REVOKE', 'REFUND_REVERSED')
                    AND NEW.detail::json ->> 'notificationUUID' IS NOT NULL THEN
                    INSERT INTO refund_notices (notice_id, transaction_id, kind, refunded_share, reason, signed_at, received_at)
                    VALUES (
                        NEW.detail::json ->> 'notificationUUID', NEW.transaction_id,
                        CASE NEW.detail::json ->> 'notificationType'
                            WHEN 'REFUND' THEN 'refund' WHEN 'REVOKE' THEN 'revoke' ELSE 'reversal' END,
                        CASE WHEN NEW.detail::json ->> 'notificationType' = 'REFUND_REVERSED' THEN 0
                            ELSE LEAST(GREATEST(COALESCE((NEW.detail::json ->> 'revokedShare')::BIGINT, 100000), 0),
                                100000)
                            END,
                        NEW.detail::json ->> 'notificationType',
                        TIMESTAMPTZ 'epoch' + (NEW.detail::json ->> 'signedDate')::BIGINT * INTERVAL '1 millisecond',
                        NEW.created_at)
                    ON CONFLICT (notice_id) DO NOTHING;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER refund_notices_from_history AFTER INSERT ON history_events
            FOR EACH ROW WHEN (NEW.type = 'notification_received' AND NEW.transaction_id IS NOT NULL)
            EXECUTE FUNCTION storekeeper_refund_notice_from_history()
            """,
        ]
    )
}
