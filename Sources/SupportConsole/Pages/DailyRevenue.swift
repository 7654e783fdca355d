import Foundation
import Ledger

/// Money per UTC day in one currency, counted by the catalog's list price (the ledger keeps
/// no prices): gross is what the purchases of a day (by Apple's purchase date, of those
/// delivered in the period) list at, refunded what the refunds recorded that day take back
/// (list price × the refunded share, rounded down per purchase), net the difference.
struct DailyRevenue: Sendable, Hashable {
    /// One day's amounts, in milliunits of ``DailyRevenue/currency``.
    struct Day: Sendable, Hashable {
        /// The start of the UTC day.
        var day: Date
        var gross: Int64 = 0
        var refunded: Int64 = 0
        /// Gross less refunded.
        var net: Int64 { gross &- refunded }
    }

    /// The ISO 4217 code.
    var currency: String
    /// The days, oldest first.
    var days: [Day]

    /// The whole period's amounts (its `day` is the first day's).
    var total: Day {
        days.reduce(into: Day(day: days.first?.day ?? .distantPast)) {
            $0.gross &+= $1.gross
            $0.refunded &+= $1.refunded
        }
    }

    /// The revenue of `activity` (its purchases and refunds counted per day) over the `days`
    /// UTC days ending with `now`'s, one value per
    /// currency the catalog prices in (`currencies`) or the activity was priced in, by
    /// currency code; `price` is the list price of a quantity of a product (nil: the catalog
    /// names none, and the purchase is left out and counted in `unpriced`).
    static func count(
        _ activity: DeliveryActivity, days: Int, endingAt now: Date, currencies: Set<String>,
        price: (String, Int) -> ConsoleMoney?
    ) -> (revenue: [DailyRevenue], unpriced: Int) {
        let starts = DailyCounts.count([], days: days, endingAt: now).map(\.day)
        let firstDay = starts.first.map(DailyCounts.dayNumber) ?? 0
        let empty = starts.map { Day(day: $0) }
        var byCurrency = Dictionary(uniqueKeysWithValues: currencies.map { ($0, empty) })
        var unpriced = 0
        // The purchases of each day, product and quantity on their purchase date, and the
        // refunds of each day, product, quantity and share on their refund date with the share
        // of the list price they take back (nil: none, a sale). Each purchase's amount depends
        // on nothing else, so a group's is one purchase's times its count (wrapping, as the
        // sum purchase by purchase would).
        let sales = activity.purchaseDays.map {
            (day: $0.day, productId: $0.productId, quantity: $0.quantity, purchases: $0.purchases, share: Int?.none)
        }
        let refunds = activity.refundDays.map {
            (
                day: $0.day, productId: $0.productId, quantity: $0.quantity, purchases: $0.purchases,
                share: Int?.some($0.refundedShare)
            )
        }
        for entry in sales + refunds {
            let slot = entry.day - firstDay
            guard starts.indices.contains(slot) else { continue }
            guard let money = price(entry.productId, entry.quantity) else {
                if entry.share == nil { unpriced += entry.purchases }
                continue
            }
            let count = Int64(entry.purchases)
            if let share = entry.share {
                byCurrency[money.currency, default: empty][slot].refunded &+= money.share(share).milliunits &* count
            } else {
                byCurrency[money.currency, default: empty][slot].gross &+= money.milliunits &* count
            }
        }
        let revenue = byCurrency.sorted { $0.key < $1.key }.map { DailyRevenue(currency: $0.key, days: $0.value) }
        return (revenue, unpriced)
    }
}
