/// The ledger's one rounding rule for refunds of part of a purchase.
///
/// Apple states how much of a transaction it refunded in milliunits
/// (`revocationPercentage`: 100,000 is all of it). Of each item of a purchase's grant, a
/// refunded share `s` takes back `amount × s / 100,000` rounded down to a whole unit, the
/// same rule for every item:
///
/// - the player keeps any fraction: the ledger never takes back more than the share Apple
///   refunded (30 % of 3 potions takes back none, 50 % of 1 coin none);
/// - a whole refund (100,000) takes back exactly the whole grant;
/// - what is taken back never shrinks as the share grows, so a larger cumulative refund
///   takes back only the difference and never gives anything back, and a reversal to 0
///   restores exactly what was taken.
public enum RefundShare {
    /// The whole purchase, in milliunits.
    public static let whole = 100_000

    /// What a refunded `share` (milliunits, clamped to 0...``whole``) takes back of a
    /// positive `amount`: `⌊amount × share / 100,000⌋`, computed without overflow.
    public static func reversed(_ amount: Int64, share: Int) -> Int64 {
        let share = Int64(min(max(share, 0), whole))
        let product = amount.multipliedFullWidth(by: share)
        return Int64(whole).dividingFullWidth(product).quotient
    }

    /// What a refunded `share` takes back of each item of `grants` (items of 0 included).
    public static func reversed(_ grants: Grants, share: Int) -> Grants {
        grants.mapValues { reversed($0, share: share) }
    }

    /// The signed amounts that move a purchase's grant from refunded share `old` to `new`:
    /// negative (taken back) when the share grows, positive (given back) when it shrinks;
    /// items that do not move are left out.
    public static func movement(of grants: Grants, from old: Int, to new: Int) -> Grants {
        grants.compactMapValues { amount in
            let moved = reversed(amount, share: old) - reversed(amount, share: new)
            return moved == 0 ? nil : moved
        }
    }
}
