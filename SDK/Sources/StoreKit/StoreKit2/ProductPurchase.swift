import Foundation

extension Product {
    /// The result of a purchase.
    ///
    /// Apple: `enum PurchaseResult` (https://developer.apple.com/documentation/storekit/product/purchaseresult).
    public enum PurchaseResult: Sendable {
        /// The purchase succeeded with a `Transaction`.
        case success(VerificationResult<Transaction>)
        /// The user canceled the purchase.
        case userCancelled
        /// The purchase is pending, and requires action from the customer (Ask to Buy);
        /// the transaction comes on `Transaction.updates` once approved.
        case pending
    }

    /// Optional settings for a product purchase.
    ///
    /// Apple: `struct PurchaseOption` (https://developer.apple.com/documentation/storekit/product/purchaseoption).
    public struct PurchaseOption: Hashable, Sendable {
        /// What the option sets (`package`: StoreKitTest's `buyProduct(identifier:options:)` reads it).
        package enum Kind: Hashable, Sendable {
            case appAccountToken(UUID)
            case quantity(Int)
            case simulatesAskToBuyInSandbox(Bool)
        }

        package let kind: Kind

        /// Sets a UUID that associates the purchase with an account in your system.
        public static func appAccountToken(_ token: UUID) -> Product.PurchaseOption {
            PurchaseOption(kind: .appAccountToken(token))
        }

        /// Indicates the quantity of items the customer is purchasing.
        public static func quantity(_ quantity: Int) -> Product.PurchaseOption {
            PurchaseOption(kind: .quantity(quantity))
        }

        /// Simulates an Ask to Buy request in the sandbox (the emulator holds the purchase
        /// for approval).
        public static func simulatesAskToBuyInSandbox(_ simulateAskToBuy: Bool) -> Product.PurchaseOption {
            PurchaseOption(kind: .simulatesAskToBuyInSandbox(simulateAskToBuy))
        }
    }

    /// Error information for StoreKit purchases.
    ///
    /// Apple: `enum PurchaseError` (https://developer.apple.com/documentation/storekit/product/purchaseerror).
    public enum PurchaseError: Error, LocalizedError, Hashable, Sendable {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters

        public var errorDescription: String? { "The purchase failed: \(self)." }
    }

    /// Initiates a purchase for the product with the App Store: the emulator charges the
    /// device (no sheet is shown), or holds the purchase under Ask to Buy (`.pending`).
    /// The app receipt at `$STOREKEEPER_STOREKIT_DATA/receipt` is refreshed after a charge.
    ///
    /// - Throws: ``Product/PurchaseError`` `.invalidQuantity` (not 1 to 10),
    ///   `.productUnavailable` (not in the catalog); ``StoreKitError``.
    public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        var token: UUID?
        var quantity = 1
        var askToBuy = false
        for option in options {
            switch option.kind {
            case .appAccountToken(let value): token = value
            case .quantity(let value): quantity = value
            case .simulatesAskToBuyInSandbox(let value): askToBuy = value
            }
        }
        guard (1...10).contains(quantity) else { throw PurchaseError.invalidQuantity }
        let client = try StoreKit2Call.client()
        if let failure = TestHooks.shared.purchaseFailure(for: id) { return try failure.storeKit2Result() }
        let productID = id
        let (tokenValue, quantityValue, askToBuyValue) = (token, quantity, askToBuy)
        InAppPurchases.shared.begin(productID, client)
        var answered: UInt64?
        defer { InAppPurchases.shared.end(productID, answered: answered, client) }
        let result: VerificationResult<Transaction>? = try await StoreKit2Call.run {
            let answer: EmulatorWire.PurchaseResult
            do {
                answer = try AskToBuy.purchasing(client, simulated: askToBuyValue) {
                    try client.purchase(productId: productID, appAccountToken: tokenValue, quantity: quantityValue)
                }
            } catch let error as EmulatorRequestError where error.code == "unknown_product" {
                throw PurchaseError.productUnavailable
            }
            guard answer.outcome == "purchased", let signed = answer.signedTransaction else { return nil }
            try? ReceiptFile.refresh(client)
            return try Transaction.verified(signed, client.configuration)
        }
        guard let result else { return .pending }
        answered = result.unsafePayloadValue.id
        return .success(result)
    }
}

/// Ask to Buy for one purchase (`simulatesAskToBuyInSandbox(true)`): the device's Ask to
/// Buy is turned on for the purchase and back off after it.
enum AskToBuy {
    static func purchasing(
        _ client: EmulatorClient, simulated: Bool, _ purchase: () throws -> EmulatorWire.PurchaseResult
    ) throws -> EmulatorWire.PurchaseResult {
        guard simulated, client.configurationAskToBuy() == false else { return try purchase() }
        try client.updateDevice(EmulatorWire.Device(askToBuy: true))
        defer { _ = try? client.updateDevice(EmulatorWire.Device(askToBuy: false)) }
        return try purchase()
    }
}

extension EmulatorClient {
    /// Whether the device has Ask to Buy on now (`nil` when it cannot be read).
    fileprivate func configurationAskToBuy() -> Bool? {
        (try? device())?.askToBuy
    }
}
