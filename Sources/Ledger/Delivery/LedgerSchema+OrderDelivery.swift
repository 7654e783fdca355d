extension LedgerSchema {
    /// PostgreSQL: `storekeeper_deliver_by_order`, the delivery of a transaction reported with
    /// the order its `appAccountToken` names, in one statement (one round trip), for
    /// ``LedgerStore/deliverByOrder(_:appAccountToken:)``. SQLite runs the same steps as
    /// statements of one transaction (``LedgerWrites/deliverByOrder(_:dialect:)``),
    /// so it needs nothing here.
    ///
    /// The function takes the transaction lock of the transaction id (as every delivery
    /// does), then writes nothing and answers `needs_binding` unless the transaction is new,
    /// has no recorded notification, and the order is the player's unfulfilled order for the
    /// product with that token. Otherwise it writes what ``LedgerStore/deliver(_:)`` writes
    /// for such a delivery (the order fulfilled, the purchase, one balance update and one
    /// `grant` entry per item in code-point order of the item names, the outbox message, the
    /// `delivered` event) and answers `delivered` with the player's balances, one row each.
    static let orderDelivery = LedgerMigration(
        version: 8,
        name: "delivery by order in one statement",
        sqlite: [],
        postgres: [
            """
            CREATE FUNCTION storekeeper_deliver_by_order(
                p_lock_space INTEGER, p_transaction_id TEXT, p_original_transaction_id TEXT, p_player_id TEXT,
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
                PERFORM pg_advisory_xact_lock(p_lock_space, hashtext(p_transaction_id));
                IF EXISTS (
                    SELECT 1 FROM history_events
                    WHERE transaction_id = p_transaction_id AND type = 'notification_received'
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
                INSERT INTO purchases (transaction_id, original_transaction_id, player_id, order_id, product_id,
                    quantity, environment, source, flags, grants, status, purchase_date, delivered_at)
                VALUES (p_transaction_id, p_original_transaction_id, p_player_id, p_order_id, p_product_id,
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
                VALUES (p_transaction_id, p_player_id, p_transaction_id, p_outbox_payload, 0, p_now, p_now)
                ON CONFLICT (idempotency_key) DO NOTHING;
                INSERT INTO history_events (type, player_id, order_id, transaction_id, detail, created_at)
                VALUES ('delivered', p_player_id, p_order_id, p_transaction_id, p_event_detail, p_now);
                RETURN QUERY
                    SELECT 'delivered'::TEXT, b.item, b.amount FROM balances AS b
                    WHERE b.player_id = p_player_id ORDER BY b.item;
            END
            $$
            """
        ]
    )
}
