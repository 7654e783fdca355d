import Foundation
import Ledger

/// What explains a player's wallet, from the ledger's own entries: per item, what purchases
/// brought, what refunds took back (net of refunds Apple reversed), what staff granted by
/// hand, what the game spent, and the balance those add up to; and the purchases' money at the catalog's list
/// price (the ledger keeps no prices).
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

    /// One ledger posting of entries by hand (a compensation or correction) or by the game
    /// (a spend): its items, who made it, why and when.
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
    /// The manual grants, oldest first.
    var manualGrants: [Posting]
    /// The game's spends: one per posting of ``LedgerEntryKind/spend`` entries.
    var spends: [Posting]
    /// How many purchases were delivered.
    var purchaseCount: Int
    /// How many of them are refunded in whole or in part.
    var refundCount: Int
    /// The list price of each purchase the catalog prices.
    var paid: [ConsoleMoney]
    /// The refunded share of each refunded purchase's list price, negative.
    var refunded: [ConsoleMoney]
    /// How many purchases the catalog names no price for (their money is not counted).
    var unpricedCount: Int

    /// The summary of `entries` (the player's ledger, oldest first), `wallet` and
    /// `purchases`, their money by `listPrice` (nil: the catalog names no price).
    init(
        entries: [LedgerEntry], wallet: [String: Int64], purchases: [Purchase],
        listPrice: (Purchase) -> ConsoleMoney?
    ) {
        var lines = Dictionary(uniqueKeysWithValues: wallet.map { ($0.key, ItemLine(item: $0.key, balance: $0.value)) })
        var manual: [Posting] = []
        var spent: [Posting] = []
        for entry in entries {
            var line = lines[entry.item] ?? ItemLine(item: entry.item)
            switch entry.kind {
            case .grant: line.bought &+= entry.amount
            case .refund, .refundReversed: line.refunded &+= entry.amount
            case .spend:
                line.spent &+= entry.amount
                Self.post(entry, into: &spent)
            case .manual:
                line.granted &+= entry.amount
                Self.post(entry, into: &manual)
            }
            lines[entry.item] = line
        }
        items = lines.values.sorted { $0.item < $1.item }
        manualGrants = manual
        spends = spent
        purchaseCount = purchases.count
        let refundedPurchases = purchases.filter { $0.refundedShare > 0 }
        refundCount = refundedPurchases.count
        let priced = purchases.map(listPrice)
        paid = priced.compactMap { $0 }
        unpricedCount = priced.count - paid.count
        refunded = refundedPurchases.compactMap { purchase in
            listPrice(purchase).map { Self.refundedMoney($0, share: purchase.refundedShare) }
        }
    }

    /// Adds `entry` to the last posting of `postings` when it is the same posting (same
    /// time, actor and reason, an item not in it yet), else as a new one.
    private static func post(_ entry: LedgerEntry, into postings: inout [Posting]) {
        let actor = entry.actor ?? ""
        let reason = entry.reason ?? ""
        if let last = postings.last, last.createdAt == entry.createdAt, last.actor == actor, last.reason == reason,
            last.grants[entry.item] == nil
        {
            postings[postings.count - 1].grants[entry.item] = entry.amount
        } else {
            postings.append(
                Posting(grants: [entry.item: entry.amount], actor: actor, reason: reason, createdAt: entry.createdAt))
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
