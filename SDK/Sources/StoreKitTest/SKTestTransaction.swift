import Foundation
import StoreKit

/// A transaction that occurs in the testing environment: on Linux, an emulator
/// transaction, a purchase waiting for Ask to Buy, or an interrupted purchase.
///
/// Apple: `class SKTestTransaction` (https://developer.apple.com/documentation/storekittest/sktesttransaction).
open class SKTestTransaction: NSObject {
    /// The identifier of the transaction in the testing environment: the transaction's
    /// `id` (as in Xcode's local environment); a small number for a purchase not charged yet.
    open private(set) var identifier: Int
    /// The original transaction identifier.
    open private(set) var originalTransactionIdentifier: Int
    /// The product identifier of the transaction.
    open private(set) var productIdentifier: String
    /// The state of the transaction.
    open private(set) var state: SKPaymentTransactionState
    /// The purchase date.
    open private(set) var purchaseDate: Date
    /// A Boolean value that indicates whether the transaction is awaiting an Ask to Buy confirmation.
    open private(set) var pendingAskToBuyConfirmation: Bool
    /// A Boolean value that indicates whether the transaction has a purchase issue (an
    /// interrupted purchase).
    open private(set) var hasPurchaseIssue: Bool
    /// A Boolean value that indicates whether the transaction was refunded.
    open private(set) var refunded: Bool

    init(
        identifier: Int, originalTransactionIdentifier: Int, productIdentifier: String,
        state: SKPaymentTransactionState, purchaseDate: Date, pendingAskToBuyConfirmation: Bool = false,
        hasPurchaseIssue: Bool = false, refunded: Bool = false
    ) {
        self.identifier = identifier
        self.originalTransactionIdentifier = originalTransactionIdentifier
        self.productIdentifier = productIdentifier
        self.state = state
        self.purchaseDate = purchaseDate
        self.pendingAskToBuyConfirmation = pendingAskToBuyConfirmation
        self.hasPurchaseIssue = hasPurchaseIssue
        self.refunded = refunded
        super.init()
    }
}
