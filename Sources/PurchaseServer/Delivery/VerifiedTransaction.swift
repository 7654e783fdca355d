import AppStoreModel
import Foundation

/// The facts of one App Store transaction that verified signed data vouches for, whichever
/// form it came in: a StoreKit 2 signed transaction, an in-app purchase of a verified
/// receipt, or Apple's verifyReceipt answer.
struct VerifiedTransaction: Sendable, Hashable {
    var transactionId: String
    var originalTransactionId: String
    var productId: String
    var quantity: Int
    /// The order binding the app passed to StoreKit, lowercased; receipts do not carry it.
    var appAccountToken: String?
    var environment: AppStoreEnvironment
    var purchaseDate: Date
    /// Set when Apple refunded or revoked the whole transaction: it is not delivered. A
    /// refund in part leaves the rest standing: the transaction is delivered and the
    /// ledger takes the refunded share back from the recorded notices.
    var revocationDate: Date?

    /// The transaction of a verified signed transaction, or `nil` when the payload lacks an
    /// id or a product.
    init?(_ payload: JWSTransactionDecodedPayload) {
        guard let transactionId = payload.transactionId, let productId = payload.productId else { return nil }
        self.transactionId = transactionId
        self.originalTransactionId = payload.originalTransactionId ?? transactionId
        self.productId = productId
        self.quantity = payload.quantity ?? 1
        self.appAccountToken = payload.appAccountToken.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        self.environment = payload.environment ?? .production
        self.purchaseDate = payload.purchaseDateValue ?? payload.signedDateValue ?? Date()
        self.revocationDate =
            payload.revokedShare == Milliunits.whole ? (payload.revocationDateValue ?? Date()) : nil
    }

    /// An in-app purchase of a verified receipt.
    init(_ purchase: InAppPurchase, environment: AppStoreEnvironment) {
        transactionId = purchase.transactionId
        originalTransactionId = purchase.originalTransactionId
        productId = purchase.productId
        quantity = purchase.quantity
        appAccountToken = nil
        self.environment = environment
        purchaseDate = purchase.purchaseDate
        revocationDate = purchase.cancellationDate
    }

    /// An in-app purchase of Apple's verifyReceipt answer, or `nil` without id or product.
    init?(_ inApp: VerifyReceiptResponse.InApp, environment: AppStoreEnvironment) {
        guard let transactionId = inApp.transactionId, let productId = inApp.productId else { return nil }
        self.transactionId = transactionId
        originalTransactionId = inApp.originalTransactionId ?? transactionId
        self.productId = productId
        quantity = inApp.quantity?.intValue ?? 1
        appAccountToken = inApp.appAccountToken.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        self.environment = environment
        purchaseDate = inApp.purchaseDateValue ?? Date()
        revocationDate = inApp.isCancelled ? (inApp.cancellationDateValue ?? Date()) : nil
    }
}
