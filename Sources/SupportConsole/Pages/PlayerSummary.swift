import Foundation
import Ledger

/// What explains a player's wallet, from the ledger's own entries added up by the database
/// (``PlayerTotals``): per item, what purchases brought, what refunds took back (net of
/// refunds Apple reversed), what staff granted by hand, what the game spent, and the balance
/// those add up to; the purchases' money at the catalog's list price (the ledger keeps no
/// prices); and the newest manual grants.
struct PlayerSummary: Sendable, Hashable {
    /// One item's balance, explained.
    struct ItemLine: Sendable, Hashable {
        /// The item, e.g. `coins`.
        var item: String
        /// What delivered purchases granted (``LedgerEntryKind/grant``).
        var bought: Int64 = 0
        /// What refunds took back, net of reversed refunds (zero or negative).
        var refunded: Int64 = 0
        /// What staff granted or took back by hand (``LedgerEntryKind/manual``).
        var granted: Int64 = 0
        /// What the game spent (``LedgerEntryKind/spend``, zero or negative).
        var spent: Int64 = 0
        /// The wallet's balance: the sum of the four.
        var balance: Int64 = 0
    }

    /// One ledger posting of entries by hand (a compensation or correction): its items, who
    /// made it, why and when.
    struct Posting: Sendable, Hashable {
        /// Signed amounts by item.
        var grants: Grants
        /// Who made it.
        var actor: String
        /// Why.
        var reason: String
        /// When.
        var createdAt: Date
    }

    /// The items, by name: every item the ledger moved or the wallet holds.
    var items: [ItemLine]
    /// The newest manual grants, oldest first (those of the entries the summary was given).
    var manualGrants: [Posting]
    /// How many manual grants the player has in all.
    var manualGrantCount: Int
    /// How many spends the player made.
    var spendCount: Int
    /// How many purchases were delivered.
    var purchaseCount: Int
    /// How many of them are refunded in whole or in part.
    var refundCount: Int
    /// The list price of the purchases the catalog prices, one amount per product, quantity
    /// and refunded share (the price times how many).
    var paid: [ConsoleMoney]
    /// The refunded share of the refunded purchases' list price, negative, one amount per
    /// product, quantity and refunded share.
    var refunded: [ConsoleMoney]
    /// How many purchases the catalog names no price for (their money is not counted).
    var unpricedCount: Int

    /// The summary of `totals` (the player's ledger added up), `wallet` and `manualEntries`
    /// (the entries of the newest manual grants, oldest first), the purchases' money by
    /// `listPrice` of a product and quantity (nil: the catalog names no price).
    init(
        totals: PlayerTotals, wallet: [String: Int64], manualEntries: [LedgerEntry],
        listPrice: (_ productId: String, _ quantity: Int) -> ConsoleMoney?
    ) {
        var lines = Dictionary(uniqueKeysWithValues: wallet.map { ($0.key, ItemLine(item: $0.key, balance: $0.value)) })
        for total in totals.entries {
            var line = lines[total.item] ?? ItemLine(item: total.item)
            switch total.kind {
            case .grant: line.bought &+= total.amount
            case .refund, .refundReversed: line.refunded &+= total.amount
            case .spend: line.spent &+= total.amount
            case .manual: line.granted &+= total.amount
            }
            lines[total.item] = line
        }
        items = lines.values.sorted { $0.item < $1.item }
        var manual: [Posting] = []
        for entry in manualEntries where entry.kind == .manual { Self.post(entry, into: &manual) }
        manualGrants = manual
        manualGrantCount = totals.manualGrantCount
        spendCount = totals.spendCount
        purchaseCount = totals.purchases.reduce(0) { $0 + $1.count }
        refundCount = totals.purchases.filter { $0.refundedShare > 0 }.reduce(0) { $0 + $1.count }
        var paid: [ConsoleMoney] = []
        var refunded: [ConsoleMoney] = []
        var unpriced = 0
        for group in totals.purchases {
            guard let price = listPrice(group.productId, group.quantity) else {
                unpriced += group.count
                continue
            }
            // Wrapping like the sum of `count` single prices (``ConsoleMoney/total(_:)``).
            paid.append(Self.times(price, group.count))
            if group.refundedShare > 0 {
                refunded.append(Self.times(Self.refundedMoney(price, share: group.refundedShare), group.count))
            }
        }
        self.paid = paid
        self.refunded = refunded
        unpricedCount = unpriced
    }

    /// `count` times `money`, wrapping as `count` additions in ``ConsoleMoney/total(_:)`` do.
    private static func times(_ money: ConsoleMoney, _ count: Int) -> ConsoleMoney {
        ConsoleMoney(milliunits: money.milliunits &* Int64(count), currency: money.currency)
    }

    /// Adds `entry` to the last posting of `postings` when it is the same posting (the same
    /// ``ManualPostingKey``, the ledger's: an item already in it adds up), else as a new one.
    /// A posting's entries come together (``SupportReads/newestManualEntries(playerId:limit:)``).
    static func post(_ entry: LedgerEntry, into postings: inout [Posting]) {
        let key = ManualPostingKey(entry)
        if let last = postings.last, last.createdAt == key.createdAt, last.actor == key.actor, last.reason == key.reason
        {
            postings[postings.count - 1].grants[entry.item, default: 0] &+= entry.amount
        } else {
            postings.append(
                Posting(
                    grants: [entry.item: entry.amount], actor: key.actor, reason: key.reason, createdAt: key.createdAt))
        }
    }

    /// The money refunded of a purchase of list price `price`: `share` (milliunits of the
    /// whole) of it, negative.
    static func refundedMoney(_ price: ConsoleMoney, share: Int) -> ConsoleMoney {
        let part = price.share(share)
        return ConsoleMoney(milliunits: -part.milliunits, currency: part.currency)
    }

    /// The list prices paid less the money refunded, per currency.
    var net: [ConsoleMoney] { paid + refunded }
}
