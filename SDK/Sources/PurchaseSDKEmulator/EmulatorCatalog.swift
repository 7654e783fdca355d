import PurchaseSDK

/// The emulator's catalog (`GET /emulator/v1/products`), which the App Store side and the
/// Google Play side both sell.
struct EmulatorCatalog: Sendable {
    let http: EmulatorHTTP

    /// Every product of the catalog.
    func all() async throws -> [EmulatorProductBody] {
        try await http.get("emulator/v1/products")
    }

    /// The catalog's products with these ids, as the store sells them.
    func products(ids: [String]) async throws -> [StoreProduct] {
        try await all().filter { ids.contains($0.productId) }.map {
            StoreProduct(
                productId: $0.productId, displayName: $0.displayName ?? $0.productId, priceMilliunits: $0.price,
                currency: $0.currency)
        }
    }
}
