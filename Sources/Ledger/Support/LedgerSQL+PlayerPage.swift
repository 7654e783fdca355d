import Foundation

/// The statements of the support console's player page: the wallet's explanation (sums kept
/// per player, ``LedgerSchema/playerTotals``; counts of an index range of the player's rows:
/// `ledger_entries_manual_by_player`, `orders_by_player`, `spends_by_player`) and the newest
/// rows it lists, so that the page reads neither every row of a player with years of
/// purchases nor any other player's.
extension LedgerSQL {
    /// Per item and kind, the sum of the player's ledger entries (`item`, `kind`, `total`),
    /// as `player_entry_totals` keeps it (``LedgerSchema/playerTotals``).
    static func entryTotals(playerId: String) -> LedgerStatement {
        LedgerStatement("SELECT item, kind, total FROM player_entry_totals WHERE player_id = ?", [.text(playerId)])
    }

    /// The player's purchases counted per product, quantity and refunded share (`product_id`,
    /// `quantity`, `refunded_share`, `purchases`), as `player_purchase_groups` keeps them
    /// (``LedgerSchema/playerTotals``; a group left empty by refunds is left out).
    static func purchaseGroups(playerId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT product_id, quantity, refunded_share, purchases FROM player_purchase_groups
            WHERE player_id = ? AND purchases > 0
            """,
            [.text(playerId)])
    }

    /// How many postings of manual entries (``ManualPostingKey``: one time, actor and
    /// reason) the player has, spends and orders (`manual_grants`, `spends`, `orders`).
    static func playerCounts(playerId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT
              (SELECT COUNT(*) FROM (
                 SELECT DISTINCT \(manualPostingKey) FROM ledger_entries
                 WHERE player_id = ? AND kind = 'manual') AS postings) AS manual_grants,
              (SELECT COUNT(*) FROM spends WHERE player_id = ?) AS spends,
              (SELECT COUNT(*) FROM orders WHERE player_id = ?) AS orders
            """,
            [.text(playerId), .text(playerId), .text(playerId)])
    }

    /// The player's newest `limit` orders, newest first.
    static func newestOrders(playerId: String, limit: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(OrderTable.columns) FROM orders WHERE player_id = ?
            ORDER BY created_at DESC, order_id DESC LIMIT ?
            """,
            [.text(playerId), .integer(Int64(limit))])
    }

    /// The player's `limit` newest delivered purchases, newest delivery first.
    static func newestPurchases(playerId: String, limit: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(PurchaseTable.columns) FROM purchases WHERE player_id = ?
            ORDER BY delivered_at DESC, transaction_id DESC LIMIT ?
            """,
            [.text(playerId), .integer(Int64(limit))])
    }

    /// The entries of the player's newest `limit` postings of manual entries
    /// (``ManualPostingKey``, the key ``playerCounts(playerId:)`` counts), oldest posting
    /// first, each posting's entries together in the order they were written.
    static func newestManualEntries(playerId: String, limit: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(LedgerEntryTable.columns) FROM ledger_entries
            WHERE player_id = ? AND kind = 'manual' AND (\(manualPostingKey)) IN (
              SELECT DISTINCT \(manualPostingKey) FROM ledger_entries WHERE player_id = ? AND kind = 'manual'
              ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT ?)
            ORDER BY \(manualPostingKey), id
            """,
            [.text(playerId), .text(playerId), .integer(Int64(limit))])
    }
}
