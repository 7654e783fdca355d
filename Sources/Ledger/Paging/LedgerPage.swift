/// One page of a list the ledger keeps in time order, oldest first.
public struct LedgerPage<Item: Sendable>: Sendable {
    /// The items of this page, at most the limit asked for.
    public var items: [Item]
    /// Where the next page starts; `nil` on the last page.
    public var next: LedgerCursor?

    /// Creates a page.
    public init(items: [Item], next: LedgerCursor?) {
        self.items = items
        self.next = next
    }
}

extension LedgerPage: Equatable where Item: Equatable {}

/// Which page of a list to read: the items after ``after`` (from the start when `nil`),
/// at most ``limit`` of them.
public struct LedgerPageRequest: Hashable, Sendable {
    /// The most items a page may hold.
    public static let maximumLimit = 500

    /// Read after this cursor; from the start when `nil`.
    public var after: LedgerCursor?
    /// At most this many items, 1 to ``maximumLimit``.
    public var limit: Int

    /// A request for at most `limit` items (clamped to 1…``maximumLimit``) after `after`.
    public init(after: LedgerCursor? = nil, limit: Int) {
        self.after = after
        self.limit = min(max(limit, 1), Self.maximumLimit)
    }

    /// The page of `rows` (fetched with ``limit`` + 1) and the cursor after its last item.
    func page<Item>(of rows: [Item], cursor: (Item) -> LedgerCursor) -> LedgerPage<Item> {
        guard rows.count > limit else { return LedgerPage(items: rows, next: nil) }
        let items = Array(rows.prefix(limit))
        return LedgerPage(items: items, next: items.last.map(cursor))
    }
}
