/// How many closed orders a journal keeps.
///
/// A journal exists to resume orders, so every record the pipeline may still act on stays:
/// anything in flight, pending orders, and refusals whose transaction is not finished yet.
/// A closed record (finished, or failed or cancelled with no unfinished transaction) is
/// kept only among the most recent ``closedRecordLimit``: without a limit a player's
/// journal grows with every purchase, and so does every rewrite of it. The server keeps
/// the history. Forgetting is safe: a transaction of a forgotten order that the store
/// lists later (again, or charged late for a cancelled order) is reported as unknown, and
/// the server binds it by its order's token: it answers with the delivery it already
/// made, delivers to the player who ordered, or refuses a reporter who is someone else.
public struct JournalRetention: Hashable, Sendable {
    /// How many closed records stay, most recently updated first.
    public var closedRecordLimit: Int

    /// Keeps the `closedRecordLimit` most recent closed records (not negative).
    public init(closedRecordLimit: Int) {
        self.closedRecordLimit = max(closedRecordLimit, 0)
    }

    /// The 50 most recent closed records.
    public static let standard = JournalRetention(closedRecordLimit: 50)

    /// The ids of the records in `records` to forget.
    public func idsToForget(in records: some Collection<PurchaseRecord>) -> [String] {
        let closed = records.filter(\.isClosed)
        guard closed.count > closedRecordLimit else { return [] }
        return
            closed
            .sorted { ($0.updatedAt, $0.id) > ($1.updatedAt, $1.id) }
            .dropFirst(closedRecordLimit)
            .map(\.id)
    }
}

extension PurchaseRecord {
    /// Whether nothing is left to do for this order: delivered and finished, or failed or
    /// cancelled with no store transaction still unfinished. Only closed records are ever
    /// forgotten by a ``JournalRetention``.
    public var isClosed: Bool {
        switch state {
        case .finished: true
        case .failed, .cancelled: transactionId == nil || transactionFinished
        case .created, .purchasing, .purchased, .reported, .delivered, .pending: false
        }
    }
}
