import AppStoreModel
import Foundation

/// Signed subscription renewal information (`signedRenewalInfo`).
extension AppStoreEmulator {
    /// The renewal information of `transaction` signed at `now`, for an auto-renewable
    /// subscription; `nil` for any other product. The renewal price is the catalog's price
    /// now (the price charged when the catalog no longer sells the product).
    func signedRenewalInfo(_ transaction: EmulatedTransaction, at now: Date) throws -> String? {
        let renewalPrice = configuration.catalog.product(transaction.productId)?.price ?? transaction.price
        return try transaction.renewalInfo(renewalPrice: renewalPrice, signedAt: now).map { try jwsSigner.sign($0) }
    }
}
