import Foundation

extension Date {
    /// Milliseconds since 1970, rounded: the ledger's time resolution on both databases.
    ///
    /// Total, so that no date from outside (a signed purchase date, a client's event time)
    /// can crash a write:
    /// - a date beyond what `Int64` milliseconds hold (about 292 million years either side
    ///   of 1970), infinite ones included, is pinned to `Int64.min` or `Int64.max`, which
    ///   keeps the order of dates (a date made from `Int64.max` milliseconds, whose
    ///   `Double` seconds round past it, gives `Int64.max` back);
    /// - a NaN date, which is no instant at all and only comes from a computation gone
    ///   wrong upstream, is stored as 0 (1970-01-01), a value every reader accepts.
    ///
    /// Whoever needs to refuse such dates must check them before they reach the ledger.
    var ledgerMilliseconds: Int64 {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        if milliseconds.isNaN { return 0 }
        if let exact = Int64(exactly: milliseconds) { return exact }
        return milliseconds < 0 ? .min : .max
    }

    /// The date `milliseconds` after 1970.
    init(ledgerMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// This date at the ledger's resolution, so both stores return identical dates.
    var ledgerNormalized: Date {
        Date(ledgerMilliseconds: ledgerMilliseconds)
    }
}
