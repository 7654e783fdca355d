import Foundation

extension LedgerSQL {
    /// The first key of the PostgreSQL advisory locks on transaction ids (the two-key lock
    /// space, apart from the migrations' one-key lock); the second is the id's hash.
    static let transactionLockSpace: Int64 = 0x534B_5246  // "SKRF"

    /// Locks the store's transaction id until the end of the database transaction (the
    /// transaction lock): a delivery and a refund settlement of one transaction run one after
    /// the other, and each reads what the other committed. The lock's second key hashes
    /// ``Store/key(_:)``, so an App Store id takes the lock the previous release takes.
    /// (PostgreSQL only: SQLite has one writer.)
    static func lockTransaction(store: Store, transactionId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT pg_advisory_xact_lock(CAST(? AS INTEGER), hashtext(?))",
            [.integer(transactionLockSpace), .text(store.key(transactionId))]
        )
    }

    /// Records a refund notice unless its notice id is known.
    static func insertRefundNotice(
        _ notice: RefundNotice, noticeId: String, store: Store, transactionId: String, signedAt: Date?,
        receivedAt: Date
    ) -> LedgerStatement {
        RefundNoticeTable.insert(
            [
                .noticeId: .text(noticeId), .store: .text(store.rawValue), .transactionId: .text(transactionId),
                .kind: .text(notice.kind.rawValue), .refundedShare: .integer(Int64(notice.refundedShare)),
                .reason: .text(notice.reason), .signedAt: .optional(signedAt), .receivedAt: .timestamp(receivedAt),
            ],
            "ON CONFLICT (notice_id) DO NOTHING")
    }

    /// The transaction's refund notices, in arrival order.
    static func refundNotices(store: Store, transactionId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(RefundNoticeTable.columns) FROM refund_notices WHERE transaction_id = ? AND store = ? ORDER BY id",
            [.text(transactionId), .text(store.rawValue)]
        )
    }

    /// How many times the transaction's refunded share has changed (its
    /// ``HistoryEventType/refunded`` and ``HistoryEventType/refundReversed`` events), as
    /// `movements`.
    static func refundMovements(store: Store, transactionId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT count(*) AS movements FROM history_events
            WHERE transaction_id = ? AND \(storeOfEvent) = ? AND type IN (?, ?)
            """,
            [
                .text(transactionId), .text(store.rawValue), .text(HistoryEventType.refunded.rawValue),
                .text(HistoryEventType.refundReversed.rawValue),
            ]
        )
    }

    /// Moves the purchase's refunded share from `from` to `purchase`'s (with its status,
    /// refund date and reason); a row only when this statement changed it (the share was
    /// still `from`).
    static func setRefundedShare(_ purchase: Purchase, from: Int) -> LedgerStatement {
        LedgerStatement(
            """
            UPDATE purchases SET refunded_share = ?, status = ?, refunded_at = ?, refund_reason = ?
            WHERE transaction_id = ? AND refunded_share = ?
            RETURNING \(PurchaseTable.columns)
            """,
            [
                .integer(Int64(purchase.refundedShare)), .text(purchase.status.rawValue),
                .optional(purchase.refundedAt), .optional(purchase.refundReason), .text(purchase.transactionId),
                .integer(Int64(from)),
            ]
        )
    }
}
