import Foundation

/// The emulator's catalog, which a test may extend while the emulator runs
/// (`PUT /emulator/v1/products`, as StoreKit Test loads a `.storekit` file), readable from
/// any thread.
///
/// `@unchecked Sendable` is safe: its only stored state, `catalog`, is read and written
/// only while `lock` is held, and `EmulatorCatalog` is a value type.
final class CatalogBox: @unchecked Sendable {
    private let lock = NSLock()
    private var catalog: EmulatorCatalog

    init(_ catalog: EmulatorCatalog) {
        self.catalog = catalog
    }

    /// The catalog now.
    var current: EmulatorCatalog {
        lock.lock()
        defer { lock.unlock() }
        return catalog
    }

    /// Adds `products`, replacing those with the same product id in place; answers the
    /// catalog after the change.
    func upsert(_ products: [EmulatorProduct]) -> EmulatorCatalog {
        lock.lock()
        defer { lock.unlock() }
        for product in products {
            if let index = catalog.products.firstIndex(where: { $0.productId == product.productId }) {
                catalog.products[index] = product
            } else {
                catalog.products.append(product)
            }
        }
        return catalog
    }
}
