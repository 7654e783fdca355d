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
    /// The first purchase of the chain (Apple's `originalPurchaseDate`), when the data says.
    var originalPurchaseDate: Date?
    /// When the subscription period ends (auto-renewable), when the data says.
    var expiresDate: Date?
    /// Apple's `inAppOwnershipType` (`PURCHASED` or `FAMILY_SHARED`); receipts say `PURCHASED`.
    var ownership: String = InAppOwnershipType.purchased.rawValue
    /// When Apple signed the data; receipts, which carry no such date, use the purchase date.
    var signedDate: Date
    /// Whether Apple says a higher-level subscription of the chain replaced this one.
    var isUpgraded = false
    /// What Apple charged, in milliunits of ``currency``, when the signed data says
    /// (receipts do not).
    var price: Int64?
    /// The ISO 4217 currency of ``price``, when the signed data says.
    var currency: String?

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
        originalPurchaseDate = payload.originalPurchaseDateValue
        expiresDate = payload.expiresDateValue
        ownership = payload.inAppOwnershipType?.rawValue ?? InAppOwnershipType.purchased.rawValue
        signedDate = payload.signedDateValue ?? purchaseDate
        isUpgraded = payload.isUpgraded == true
        price = payload.price
        currency = payload.currency
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
        originalPurchaseDate = purchase.originalPurchaseDate
        expiresDate = purchase.subscriptionExpirationDate
        signedDate = purchase.purchaseDate
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
        originalPurchaseDate = inApp.originalPurchaseDateValue
        expiresDate = inApp.expiresDateValue
        signedDate = purchaseDate
        ownership = inApp.inAppOwnershipType?.rawValue ?? InAppOwnershipType.purchased.rawValue
        isUpgraded = inApp.isUpgraded?.boolValue == true
    }
}
