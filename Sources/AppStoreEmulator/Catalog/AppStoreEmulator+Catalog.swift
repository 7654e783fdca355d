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
    /// - Throws: ``EmulatorError`` `invalid_product` for an empty product id, a negative
    ///   price, or a subscription or grace period that is not positive or is longer than
    ///   10 years; nothing is added then.
    @discardableResult
    public nonisolated func addProducts(_ products: [EmulatorProduct]) throws -> EmulatorCatalog {
        for product in products {
            guard !product.productId.isEmpty else {
                throw EmulatorError("invalid_product", "a product id must not be empty")
            }
            guard product.price >= 0 else {
                throw EmulatorError("invalid_product", "\(product.productId)'s price must not be negative")
            }
            for (name, seconds) in [
                ("subscriptionPeriodSeconds", product.subscriptionPeriodSeconds),
                ("gracePeriodSeconds", product.gracePeriodSeconds),
            ] {
                guard let seconds, !(1...Self.longestPeriodSeconds).contains(seconds) else { continue }
                throw EmulatorError(
                    "invalid_product",
                    "\(product.productId)'s \(name) must be positive and at most 10 years, not \(seconds)")
            }
        }
        return catalogBox.upsert(products)
    }
}
