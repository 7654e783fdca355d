/// Where a transaction sorts in a listing (transaction history by modified date, refund
/// history by revocation date): the date, then the transaction id as a number, so that
/// transactions of the same millisecond keep the order they were made in.
///
/// As a ``PageToken`` position, `<date>_<transactionId>`: the key of the last transaction a
/// page gave; the next page starts after it.
struct TransactionSortKey: Comparable {
    /// Milliseconds since 1970.
    var date: Int64
    /// Decimal digits.
    var transactionId: String

    init(date: Int64, transactionId: String) {
        self.date = date
        self.transactionId = transactionId
    }

    /// A position read back; `nil` when it is not `<date>_<digits>`.
    init?(position: String) {
        let parts = position.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = Int64(parts[0]), !parts[1].isEmpty,
            parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        self.init(date: date, transactionId: String(parts[1]))
    }

    /// The key as a page position.
    var position: String { "\(date)_\(transactionId)" }

    static func < (lhs: TransactionSortKey, rhs: TransactionSortKey) -> Bool {
        // Ids are digits of varying length: a shorter one is a smaller number.
        (lhs.date, lhs.transactionId.count, lhs.transactionId) < (rhs.date, rhs.transactionId.count, rhs.transactionId)
    }
}
