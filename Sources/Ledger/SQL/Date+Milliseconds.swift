import Foundation

extension Date {
    /// Milliseconds since 1970, rounded: the ledger's time resolution on both databases.
    var ledgerMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
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
