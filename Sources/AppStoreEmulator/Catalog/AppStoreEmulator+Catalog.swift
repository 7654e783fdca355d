import Foundation

/// The catalog the emulator sells now: the configuration's, with the products a test added
/// while it runs (as StoreKit Test loads a `.storekit` file).
extension AppStoreEmulator {
    /// The catalog now.
    public nonisolated var catalog: EmulatorCatalog { catalogBox.current }

    /// Adds products to the catalog, replacing those with the same product id (in place).
    /// The change lasts while the emulator runs: a restart sells the configuration's
    /// catalog again.
    ///
    /// - Returns: The catalog after the change.
    /// - Throws: ``EmulatorError`` `invalid_product` for a product the catalog cannot sell
    ///   (an empty product id, a negative price, a group level outside 1…1000, or a
    ///   subscription or grace period that is not positive or is longer than 10 years);
    ///   nothing is added then.
    @discardableResult
    public nonisolated func addProducts(_ products: [EmulatorProduct]) throws -> EmulatorCatalog {
        if let problem = products.lazy.compactMap(\.problem).first {
            throw EmulatorError("invalid_product", problem)
        }
        return catalogBox.upsert(products)
    }
}
