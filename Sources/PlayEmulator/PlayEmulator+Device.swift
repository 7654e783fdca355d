import Crypto
import Foundation
import PlayModel
import _CryptoExtras

extension PlayEmulator {
    /// The device side of a purchase, as the Play Billing Library reports it: the app's
    /// device `deviceId` buys `request.productId`.
    ///
    /// - Throws: ``PlayEmulatorError``: 404 `unknown_product`, 400 `not_a_one_time_product`,
    ///   400 `invalid_request` (an empty or over-64-character obfuscated id, a quantity
    ///   outside 1…100), 409 `item_already_owned` while the device holds an unconsumed
    ///   purchase of the product (Play's `ITEM_ALREADY_OWNED`); the license key's error.
    public func purchase(deviceId: String, _ request: PlayDevicePurchaseRequest, now: Date = Date()) throws
        -> PlayDevicePurchaseResult
    {
        guard let product = products(request.productId) else {
            throw PlayEmulatorError("unknown_product", "the catalog has no product \(request.productId)", status: 404)
        }
        guard product.isOneTime else {
            throw PlayEmulatorError(
                "not_a_one_time_product",
                "\(request.productId) is a subscription; the Play side sells one-time products")
        }
        for (name, value) in [
            ("obfuscatedAccountId", request.obfuscatedAccountId), ("obfuscatedProfileId", request.obfuscatedProfileId),
        ] {
            if let value, value.isEmpty || value.count > 64 {
                throw PlayEmulatorError("invalid_request", "\(name) must be 1 to 64 characters")
            }
        }
        let quantity = request.quantity ?? 1
        guard (1...100).contains(quantity) else {
            throw PlayEmulatorError("invalid_request", "quantity must be 1 to 100, not \(quantity)")
        }
        let licenseKey = try licenseKey.get()
        let purchase = PlayPurchase(
            purchaseToken: PlayIdentifiers.purchaseToken(), orderId: PlayIdentifiers.orderId(),
            packageName: packageName, productId: product.productId, deviceId: deviceId, purchaseTime: now,
            purchaseState: request.pending == true ? PurchaseState.pending : PurchaseState.purchased,
            quantity: quantity, obfuscatedAccountId: request.obfuscatedAccountId,
            obfuscatedProfileId: request.obfuscatedProfileId)
        try state.withLock { state in
            let owned = state.purchases.values.contains {
                $0.deviceId == deviceId && $0.productId == product.productId
                    && $0.consumptionState == ConsumptionState.yetToBeConsumed
                    && $0.purchaseState != PurchaseState.canceled
            }
            guard !owned else {
                throw PlayEmulatorError(
                    "item_already_owned", "device \(deviceId) owns \(product.productId) and has not consumed it",
                    status: 409)
            }
            state.purchases[purchase.purchaseToken] = purchase
        }
        let originalJson = try PlayBillingPurchaseJSON(purchase).json()
        let signature = try licenseKey.signature(
            for: Insecure.SHA1.hash(data: Data(originalJson.utf8)), padding: .insecurePKCS1v1_5)
        return PlayDevicePurchaseResult(
            purchaseToken: purchase.purchaseToken, orderId: purchase.orderId, originalJson: originalJson,
            signature: signature.rawRepresentation.base64EncodedString(),
            purchaseState: purchase.purchaseState == PurchaseState.pending ? 2 : 1)
    }
}
