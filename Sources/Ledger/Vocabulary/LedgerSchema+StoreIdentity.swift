extension LedgerSchema {
    /// Stores (version 12): a purchase's identity is the store that sold it and the store's
    /// id for it (``Store``).
    ///
    /// - `purchases`, `entitlements`, `refund_notices` and `notifications` gain `store`
    ///   (`app_store` for every row before: the App Store was the only store), and
    ///   `history_events` gains a `store` for the transaction an event is about (`NULL` in the
    ///   rows before, read as `app_store`: ``LedgerSQL/storeOfEvent``). Adding a column with
    ///   a constant default rewrites no row on either database.
    /// - Every statement of this release finds a purchase, an entitlement, a refund notice and
    ///   a notification by (`store`, id), and keys the outbox and PostgreSQL's transaction lock
    ///   by ``Store/key(_:)`` (an App Store id as it was).
    /// - The previous release's statements keep working during a rolling upgrade: the
    ///   primary keys stay on the id alone (their `ON CONFLICT (transaction_id)` needs that),
    ///   and so does migration 8's function; this release calls its own
    ///   `storekeeper_deliver_by_order` (18 arguments: the store and the key first). While the
    ///   single-column keys stay, an id one store used is refused to another
    ///   (``LedgerError/transactionIdOfOtherStore(store:transactionId:)``): App Store ids
    ///   are digits and Google Play's order ids start with `GPA.`. The release after next
    ///   moves the primary keys to (`store`, id) and drops the 16-argument function.
    static let storeIdentity = LedgerMigration(
        version: 12,
        name: "stores",
        sqlite: [
            "ALTER TABLE purchases ADD COLUMN store TEXT NOT NULL DEFAULT 'app_store'",
            "ALTER TABLE entitlements ADD COLUMN store TEXT NOT NULL DEFAULT 'app_store'",
            "ALTER TABLE refund_notices ADD COLUMN store TEXT NOT NULL DEFAULT 'app_store'",
            "ALTER TABLE notifications ADD COLUMN store TEXT NOT NULL DEFAULT 'app_store'",
            "ALTER TABLE history_events ADD COLUMN store TEXT",
        ],
        postgres: [
            "ALTER TABLE purchases ADD COLUMN store TEXT NOT NULL DEFAULT 'app_store'",
            "ALTER TABLE entitlements ADD COLUMN store TEXT NOT NULL DEFAULT 'app_store'",
            "ALTER TABLE refund_notices ADD COLUMN store TEXT NOT NULL DEFAULT 'app_store'",
            "ALTER TABLE notifications ADD COLUMN store TEXT NOT NULL DEFAULT 'app_store'",
            "ALTER TABLE history_events ADD COLUMN store TEXT",
            """
            CREATE FUNCTION storekeeper_deliver_by_order(
                p_lock_space INTEGER, p_store TEXT, p_key TEXT, p_transaction_id TEXT, p_original_transaction_id TEXT, p_player_id TEXT,
                p_order_id TEXT, p_app_account_token TEXT, p_product_id TEXT, p_quantity BIGINT,
                p_environment TEXT, p_source TEXT, p_flags TEXT, p_grants TEXT, p_purchase_date TIMESTAMPTZ,
                p_now TIMESTAMPTZ, p_outbox_payload TEXT, p_event_detail TEXT
            ) RETURNS TABLE (outcome TEXT, item TEXT, amount BIGINT)
            LANGUAGE plpgsql AS $$
            #variable_conflict use_column
            DECLARE
                v_item TEXT;
                v_amount BIGINT;
                v_balance BIGINT;
            BEGIN
                PERFORM pg_advisory_xact_lock(p_lock_space, hashtext(p_key));
                IF EXISTS (
                    SELECT 1 FROM history_events
                    WHERE transaction_id = p_transaction_id AND type = 'notification_received'
                        AND COALESCE(store, 'app_store') = p_store
                ) OR EXISTS (SELECT 1 FROM purchases WHERE transaction_id = p_transaction_id) THEN
                    RETURN QUERY SELECT 'needs_binding'::TEXT, NULL::TEXT, NULL::BIGINT;
                    RETURN;
                END IF;
                UPDATE orders SET status = 'fulfilled', fulfilled_by = p_transaction_id, fulfilled_at = p_now
                WHERE order_id = p_order_id AND player_id = p_player_id AND app_account_token = p_app_account_token
                    AND product_id = p_product_id AND status = 'created';
                IF NOT FOUND THEN
                    RETURN QUERY SELECT 'needs_binding'::TEXT, NULL::TEXT, NULL::BIGINT;
                    RETURN;
                END IF;
                INSERT INTO purchases (store, transaction_id, original_transaction_id, player_id, order_id, product_id,
                    quantity, environment, source, flags, grants, status, purchase_date, delivered_at)
                VALUES (p_store, p_transaction_id, p_original_transaction_id, p_player_id, p_order_id, p_product_id,
                    p_quantity, p_environment, p_source, p_flags, p_grants, 'delivered', p_purchase_date, p_now);
                FOR v_item, v_amount IN
                    SELECT g.key, g.value::BIGINT FROM json_each_text(p_grants::JSON) AS g ORDER BY g.key COLLATE "C"
                LOOP
                    INSERT INTO balances AS b (player_id, item, amount, updated_at)
                    VALUES (p_player_id, v_item, v_amount, p_now)
                    ON CONFLICT (player_id, item)
                    DO UPDATE SET amount = b.amount + excluded.amount, updated_at = excluded.updated_at
                    RETURNING b.amount INTO v_balance;
                    INSERT INTO ledger_entries (player_id, item, amount, kind, transaction_id, balance_after, created_at)
                    VALUES (p_player_id, v_item, v_amount, 'grant', p_transaction_id, v_balance, p_now);
                END LOOP;
                INSERT INTO outbox (idempotency_key, player_id, transaction_id, payload, attempts, next_attempt_at,
                    created_at)
                VALUES (p_key, p_player_id, p_transaction_id, p_outbox_payload, 0, p_now, p_now)
                ON CONFLICT (idempotency_key) DO NOTHING;
                INSERT INTO history_events (type, player_id, order_id, transaction_id, store, detail, created_at)
                VALUES ('delivered', p_player_id, p_order_id, p_transaction_id, p_store, p_event_detail, p_now);
                RETURN QUERY
                    SELECT 'delivered'::TEXT, b.item, b.amount FROM balances AS b
                    WHERE b.player_id = p_player_id ORDER BY b.item;
            END
            $$
            """,
        ]
    )
}
