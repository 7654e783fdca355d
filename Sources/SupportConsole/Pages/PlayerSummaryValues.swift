import Foundation
import Ledger

/// The template values of the player page's top: the summary that explains the wallet and
/// the one list of purchases, manual grants and spends.
extension SupportPages {
    /// The summary: each item's bought, refunded, granted, spent and balance, and the counts
    /// and money (list price) of purchases, refunds, manual grants and spends.
    func values(of summary: PlayerSummary, _ caller: ConsoleCaller) -> [String: any Sendable] {
        var values: [String: any Sendable] = [
            "items": summary.items.map { line -> [String: any Sendable] in
                [
                    "item": line.item, "bought": String(line.bought), "refunded": String(line.refunded),
                    "granted": String(line.granted), "spent": String(line.spent),
                    "balanceValue": String(line.balance), "spentLabel": ConsoleFormat.amount(line.spent),
                    "boughtLabel": ConsoleFormat.amount(line.bought),
                    "refundedLabel": ConsoleFormat.amount(line.refunded),
                    "grantedLabel": ConsoleFormat.amount(line.granted),
                    "balance": ConsoleFormat.amount(line.balance), "negative": line.balance < 0,
                ]
            },
            "hasItems": !summary.items.isEmpty,
            "purchases": counted(summary.purchaseCount, "summary_purchases", caller),
            "refunds": counted(summary.refundCount, "summary_refunds", caller),
            "manualGrants": counted(summary.manualGrantCount, "summary_grants", caller),
            "spends": counted(summary.spendCount, "summary_spends", caller),
        ]
        values["paid"] = ConsoleMoney.total(summary.paid)
        values["refunded"] = ConsoleMoney.total(summary.refunded)
        values["net"] = ConsoleMoney.total(summary.net)
        if summary.unpricedCount > 0 {
            values["unpriced"] = counted(summary.unpricedCount, "summary_unpriced", caller)
        }
        return values
    }

    /// The purchases, the manual grants and the spends in one list, newest first, at most
    /// ``recordLimit`` rows: a purchase with its list price and what a refund took back (money,
    /// share and items); a grant with its items, who made it and why; a spend with its items
    /// (negative), the game's key, who asked and why.
    func statementValues(
        purchases: [Purchase], manualGrants: [PlayerSummary.Posting], spends: [Spend], _ caller: ConsoleCaller
    ) -> [[String: any Sendable]] {
        let bought = purchases.map { purchase -> (Date, [String: any Sendable]) in
            var row = values(of: purchase, caller)
            row["isPurchase"] = true
            row["date"] = ConsoleFormat.date(purchase.purchaseDate)
            row["price"] = listPrice(purchase.productId, quantity: purchase.quantity)?.formatted
            if purchase.refundedShare > 0 {
                row["refundedShareValue"] = String(purchase.refundedShare)
                row["refundMoney"] = refunded(purchase, caller)
                row["refundItems"] = Self.grants(
                    RefundShare.reversed(purchase.grants, share: purchase.refundedShare).mapValues { -$0 })
            }
            return (purchase.purchaseDate, row)
        }
        let granted = manualGrants.map { grant -> (Date, [String: any Sendable]) in
            let row: [String: any Sendable] = [
                "isManualGrant": true, "actor": grant.actor, "reason": grant.reason,
                "grants": Self.grants(grant.grants), "date": ConsoleFormat.date(grant.createdAt),
            ]
            return (grant.createdAt, row)
        }
        let spent = spends.map { spend -> (Date, [String: any Sendable]) in
            let row: [String: any Sendable] = [
                "isSpend": true, "actor": spend.actor, "reason": spend.reason, "spendKey": spend.idempotencyKey,
                "grants": Self.grants(spend.items.mapValues { -$0 }), "date": ConsoleFormat.date(spend.createdAt),
            ]
            return (spend.createdAt, row)
        }
        return (bought + granted + spent).sorted { $0.0 > $1.0 }.prefix(Self.recordLimit).map { $0.1 }
    }

    /// The string `key` (or `key_one` for one) with `{n}` replaced by `count`.
    private func counted(_ count: Int, _ key: String, _ caller: ConsoleCaller) -> String {
        text(count == 1 ? key + "_one" : key, caller, ["n": ConsoleFormat.count(count)])
    }
}
