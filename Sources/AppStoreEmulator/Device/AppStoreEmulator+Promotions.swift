import Foundation

/// Promoted In-App Purchases: a customer taps a product on the app's App Store page; the
/// app on the device receives it the next time it asks.
extension AppStoreEmulator {
    /// Promotes a product to a device, as a customer choosing it on the App Store page.
    ///
    /// - Throws: ``EmulatorError`` `unknown_product` (404) when the catalog lacks it.
    public func promote(deviceId: String, productId: String) throws -> EmulatedPromotion {
        guard catalog.product(productId) != nil else { throw EmulatorError.unknownProduct(productId) }
        let promotion = EmulatedPromotion(
            promotionId: UUID().uuidString.lowercased(), deviceId: deviceId, productId: productId)
        try commit([.promotion(promotion)])
        return promotion
    }

    /// The promotions the device's app has not taken yet, oldest first.
    public func promotions(deviceId: String) -> [EmulatedPromotion] {
        state.promotionOrder.compactMap { state.promotions[$0] }.filter { $0.deviceId == deviceId }
    }

    /// The device's app took a promotion: it is no longer listed.
    ///
    /// - Throws: ``EmulatorError`` `unknown_promotion` (404) when the device has no such
    ///   promotion waiting (taken already, or another device's).
    public func takePromotion(deviceId: String, promotionId: String) throws {
        guard state.promotions[promotionId]?.deviceId == deviceId else {
            throw EmulatorError(
                "unknown_promotion", "no promotion \(promotionId) waiting on device \(deviceId)", status: 404)
        }
        try commit([.promotionTaken(promotionId: promotionId)])
    }
}
