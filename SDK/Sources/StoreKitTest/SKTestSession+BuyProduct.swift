import Foundation
import StoreKit

extension SKTestSession {
    /// Simulates buying a product outside the app, with purchase options, and answers its
    /// transaction (it also reaches `Transaction.updates` and the payment queue's
    /// observers, as a purchase on another device).
    ///
    /// Apple: `@discardableResult func buyProduct(identifier: Product.ID, options:
    /// Set<Product.PurchaseOption> = []) async throws -> Transaction` (iOS 17, macOS 14;
    /// https://developer.apple.com/documentation/storekittest/sktestsession/buyproduct(identifier:options:)).
    /// `appAccountToken` and `quantity` are honoured; `simulatesAskToBuyInSandbox` is not.
    ///
    /// - Throws: `Product.PurchaseError.invalidQuantity` (not 1 to 10),
    ///   `.productUnavailable` (not in the catalog); `SKError` for an unconfigured
    ///   environment, an emulator refusal, or a purchase held for Ask to Buy.
    @discardableResult
    nonisolated(nonsending) public func buyProduct(identifier: Product.ID, options: Set<Product.PurchaseOption> = [])
        async throws
        -> Transaction
    {
        var token: UUID?
        var quantity = 1
        for option in options {
            switch option.kind {
            case .appAccountToken(let value): token = value
            case .quantity(let value): quantity = value
            case .simulatesAskToBuyInSandbox: continue
            }
        }
        guard (1...10).contains(quantity) else { throw Product.PurchaseError.invalidQuantity }
        let client = try StoreKit1Call.client()
        let (tokenValue, quantityValue) = (token, quantity)
        do {
            return try await EmulatorClient.run {
                let answer = try client.purchase(
                    productId: identifier, appAccountToken: tokenValue, quantity: quantityValue)
                guard answer.outcome == "purchased", let signed = answer.signedTransaction else {
                    throw SKError(
                        .unknown,
                        userInfo: [NSLocalizedDescriptionKey: "the purchase of \(identifier) waits for Ask to Buy"])
                }
                return try Transaction.verified(signed, client.configuration).unsafePayloadValue
            }
        } catch let error as EmulatorRequestError where error.code == "unknown_product" {
            throw Product.PurchaseError.productUnavailable
        } catch let error as SKError {
            throw error
        } catch {
            throw SKError.from(error)
        }
    }
}
