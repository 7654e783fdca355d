import Foundation

/// Values representing the state of a transaction.
///
/// Apple: `enum SKPaymentTransactionState` (https://developer.apple.com/documentation/storekit/skpaymenttransactionstate).
public enum SKPaymentTransactionState: Int, Sendable {
    /// A transaction that is being processed by the App Store.
    case purchasing = 0
    /// A successfully processed transaction.
    case purchased = 1
    /// A failed transaction.
    case failed = 2
    /// A transaction that restores content previously purchased by the user.
    case restored = 3
    /// A transaction that is in the queue, but its final status is pending external action.
    case deferred = 4
}

/// An object in the payment queue.
///
/// Apple: `class SKPaymentTransaction` (https://developer.apple.com/documentation/storekit/skpaymenttransaction).
/// Its state changes on the main queue only, before observers are told.
open class SKPaymentTransaction: NSObject {
    /// The payment for the transaction.
    open private(set) var payment: SKPayment
    /// The current state of the transaction.
    open internal(set) var transactionState: SKPaymentTransactionState
    /// A string that uniquely identifies a successful payment transaction.
    open internal(set) var transactionIdentifier: String?
    /// The date the transaction was added to the App Store's payment queue.
    open internal(set) var transactionDate: Date?
    /// The transaction that was restored by the App Store.
    open internal(set) var original: SKPaymentTransaction?
    /// An object describing the error that occurred while processing the transaction.
    open internal(set) var error: (any Error)?

    /// The emulator's pending purchase behind a deferred transaction.
    var pendingId: String?

    init(payment: SKPayment, state: SKPaymentTransactionState) {
        self.payment = payment
        self.transactionState = state
        super.init()
    }
}
