import Crypto
import Foundation
import PlayModel
import _CryptoExtras

extension PlayEmulator {
    /// The device side of a purchase, as the Play Billing Library reports it: the app's
    /// device `deviceId` buys `request.productId` at ``now``.
    ///
    /// A subscription (``PlayProduct/subscriptionPeriod``) starts at once and renews on the
    /// emulator's clock (``subscribe(deviceId:product:_:)``).
    ///
    /// - Throws: ``PlayEmulatorError``: 404 `unknown_product`, 400 `not_a_one_time_product`
    ///   (a product the Play side does not sell), 400 `invalid_request` (an empty or
    ///   over-64-character obfuscated id, a quantity outside 1…100, a pending or
    ///   multi-quantity subscription), 409 `item_already_owned` while the device holds an
    ///   unconsumed purchase of the product, or a live subscription to it (Play's
    ///   `ITEM_ALREADY_OWNED`); the errors of a replacement
    ///   (``PlayDevicePurchaseRequest/oldPurchaseToken``, for a subscription only); the
    ///   license key's error.
    public func purchase(deviceId: String, _ request: PlayDevicePurchaseRequest) throws -> PlayDevicePurchaseResult {
        guard let product = products(request.productId) else {
            throw PlayEmulatorError("unknown_product", "the catalog has no product \(request.productId)", status: 404)
        }
        for (name, value) in [
            ("obfuscatedAccountId", request.obfuscatedAccountId), ("obfuscatedProfileId", request.obfuscatedProfileId),
        ] {
            if let value, value.isEmpty || value.count > 64 {
                throw PlayEmulatorError("invalid_request", "\(name) must be 1 to 64 characters")
            }
        }
        if product.subscriptionPeriod != nil { return try subscribe(deviceId: deviceId, product: product, request) }
        guard request.oldPurchaseToken == nil, request.subscriptionReplacementMode == nil else {
            throw PlayEmulatorError("invalid_request", "only a subscription replaces another")
        }
        guard product.isOneTime else {
            throw PlayEmulatorError(
                "not_a_one_time_product",
                "\(request.productId) is neither a one-time product nor an auto-renewing subscription")
        }
        let quantity = request.quantity ?? 1
        guard (1...100).contains(quantity) else {
            throw PlayEmulatorError("invalid_request", "quantity must be 1 to 100, not \(quantity)")
        }
        let licenseKey = try licenseKey.get()
        let now = self.now()
        let pending = request.pending == true
        let purchase = PlayPurchase(
            purchaseToken: PlayIdentifiers.purchaseToken(), orderId: PlayIdentifiers.orderId(),
            packageName: packageName, productId: product.productId, deviceId: deviceId, purchaseTime: now,
            purchaseState: pending ? PurchaseState.pending : PurchaseState.purchased,
            quantity: quantity, obfuscatedAccountId: request.obfuscatedAccountId,
            obfuscatedProfileId: request.obfuscatedProfileId, paidTime: pending ? nil : now)
        try update(storageFailure: PlayEmulatorError.storageUnavailable) { state throws in
            let owned = state.purchases.values.contains {
                $0.deviceId == deviceId && $0.productId == product.productId && $0.isOwned
            }
            guard !owned else {
                throw PlayEmulatorError(
                    "item_already_owned", "device \(deviceId) owns \(product.productId) and has not consumed it",
                    status: 409)
            }
            state.purchases[purchase.purchaseToken] = purchase
            if !pending { publish(&state, oneTimeProduct: OneTimeProductNotificationType.purchased, of: purchase) }
        }
        return try Self.deviceResult(purchase, signedWith: licenseKey)
    }

    /// What the device holds of `purchase`: the library's purchase JSON, signed with the
    /// license key.
    static func deviceResult(
        _ purchase: PlayPurchase, signedWith licenseKey: _RSA.Signing.PrivateKey
    ) throws -> PlayDevicePurchaseResult {
        try deviceResult(PlayBillingPurchaseJSON(purchase), signedWith: licenseKey)
    }

    /// What the device holds of a purchase whose library JSON is `purchase`, signed with the
    /// license key.
    static func deviceResult(
        _ purchase: PlayBillingPurchaseJSON, signedWith licenseKey: _RSA.Signing.PrivateKey
    ) throws -> PlayDevicePurchaseResult {
        let originalJson = try purchase.json()
        let signature = try licenseKey.signature(
            for: Insecure.SHA1.hash(data: Data(originalJson.utf8)), padding: .insecurePKCS1v1_5)
        let libraryState =
            switch purchase.purchaseState {
            case 0: 1
            case 4: 2
            default: 0
            }
        return PlayDevicePurchaseResult(
            purchaseToken: purchase.purchaseToken, orderId: purchase.orderId, originalJson: originalJson,
            signature: signature.rawRepresentation.base64EncodedString(), purchaseState: libraryState)
    }
}

extension PlayPurchase {
    /// Whether the device still holds it: not canceled (or refunded away) and not consumed,
    /// so it blocks buying the product again and `queryPurchases` lists it.
    var isOwned: Bool {
        purchaseState != PurchaseState.canceled && consumptionState == ConsumptionState.yetToBeConsumed
    }
}
