/// What explains a player's wallet, added up by the database over the player's whole
/// history (the player page reads these instead of every row: a player may have tens of
/// thousands of purchases).
public struct PlayerTotals: Sendable, Hashable {
    /// The sum of the amounts of one item's ledger entries of one kind.
    public struct EntryTotal: Sendable, Hashable {
        /// The item, e.g. `coins`.
        public var item: String
        /// Why the entries were written.
        public var kind: LedgerEntryKind
        /// The sum of their amounts.
        public var amount: Int64

        /// Creates a value.
        public init(item: String, kind: LedgerEntryKind, amount: Int64) {
            self.item = item
            self.kind = kind
            self.amount = amount
        }
    }

    /// How many of the player's purchases are of one product, quantity and refunded share.
    public struct PurchaseGroup: Sendable, Hashable {
        /// The product bought.
        public var productId: String
        /// Units bought per purchase.
        public var quantity: Int
        /// The refunded share of each (milliunits of the whole; 0: not refunded).
        public var refundedShare: Int
        /// How many purchases.
        public var count: Int

        /// Creates a value.
        public init(productId: String, quantity: Int, refundedShare: Int, count: Int) {
            self.productId = productId
            self.quantity = quantity
            self.refundedShare = refundedShare
            self.count = count
        }
    }

    /// Per item and kind, the sum of the player's ledger entries (in no particular order).
    public var entries: [EntryTotal]
    /// The player's purchases grouped by product, quantity and refunded share (in no
    /// particular order).
    public var purchases: [PurchaseGroup]
    /// How many postings of ``LedgerEntryKind/manual`` entries the player has: entries of one
    /// ``ManualPostingKey`` (time, actor and reason) are one posting.
    public var manualGrantCount: Int
    /// How many spends the player made.
    public var spendCount: Int
    /// How many orders the player made.
    public var orderCount: Int

    /// Creates a value.
    public init(
        entries: [EntryTotal], purchases: [PurchaseGroup], manualGrantCount: Int, spendCount: Int, orderCount: Int
    ) {
        self.entries = entries
        self.purchases = purchases
        self.manualGrantCount = manualGrantCount
        self.spendCount = spendCount
        self.orderCount = orderCount
    }
}
