/// What a purchase or a manual grant gives a player: item → amount.
///
/// Consumables are counted (`["coins": 100]`); a non-consumable is an entitlement item with
/// amount 1 (`["remove_ads": 1]`). Item names are the game's own; the ledger does not
/// interpret them.
public typealias Grants = [String: Int64]

/// The names of the items grants move: identifiers (``IdentifierRule``), in the catalog and
/// in manual grants alike.
public enum ItemName {
    /// The longest item name, in characters (Unicode scalars).
    public static let maximumLength = 128
}
