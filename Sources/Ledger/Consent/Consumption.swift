/// What the game server reports spent of a purchase's grant, for
/// ``LedgerStore/recordConsumption(transactionId:_:reportedBy:)``.
public enum Consumption: Sendable, Hashable {
    /// The share spent, in milliunits (0 to 100,000).
    case share(Int)
    /// The amounts spent per granted item (0 up to the amount granted; an item left out
    /// counts as none spent). The share is the mean of the items' shares, each rounded down
    /// to a milliunit (see ``share(spent:granted:)``).
    case spent(Grants)

    /// The share of `granted` that `spent` is, in milliunits: each granted item counts
    /// equally (coins and potions have no common unit), its share rounded down, and the
    /// mean rounded down, so 100,000 means everything was spent and 0 nothing.
    ///
    /// - Throws: ``LedgerError/invalidGrants(_:)`` for an item not granted or an amount
    ///   below 0 or above the amount granted.
    public static func share(spent: Grants, granted: Grants) throws -> Int {
        for (item, amount) in spent {
            guard let grant = granted[item] else {
                throw LedgerError.invalidGrants("\(item) is not granted by this purchase")
            }
            guard (0...grant).contains(amount) else {
                throw LedgerError.invalidGrants("\(item): \(amount) is not from 0 to the \(grant) granted")
            }
        }
        let positive = granted.filter { $0.value > 0 }
        guard !positive.isEmpty else { throw LedgerError.invalidGrants("the purchase granted nothing") }
        let total = positive.reduce(Int64(0)) { sum, grant in
            let product = (spent[grant.key] ?? 0).multipliedFullWidth(by: Int64(RefundShare.whole))
            return sum + grant.value.dividingFullWidth(product).quotient
        }
        return Int(total / Int64(positive.count))
    }
}
