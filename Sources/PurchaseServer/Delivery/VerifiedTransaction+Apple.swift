import AppStoreModel
import Foundation
import Ledger

extension VerifiedTransaction {
    /// The transaction of a verified signed transaction, or `nil` when the payload lacks an
    /// id or a product.
    init?(_ payload: JWSTransactionDecodedPayload) {
        guard let transactionId = payload.transactionId, let productId = payload.productId else { return nil }
        store = .appStore
        self.transactionId = transactionId
        self.originalTransactionId = payload.originalTransactionId ?? transactionId
        self.productId = productId
        self.quantity = payload.quantity ?? 1
        self.appAccountToken = payload.appAccountToken.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        self.environment = PurchaseEnvironment(apple: payload.environment ?? .production)
        self.purchaseDate = payload.purchaseDateValue ?? payload.signedDateValue ?? Date()
        self.revocationDate =
            payload.revokedShare == Milliunits.whole ? (payload.revocationDateValue ?? Date()) : nil
        originalPurchaseDate = payload.originalPurchaseDateValue
        expiresDate = payload.expiresDateValue
        ownership = Ownership(apple: payload.inAppOwnershipType)
        signedDate = payload.signedDateValue ?? purchaseDate
        isUpgraded = payload.isUpgraded == true
        price = payload.price
        currency = payload.currency
    }

    /// An in-app purchase of a verified receipt, made in Apple's `environment`.
    init(_ purchase: InAppPurchase, environment: AppStoreEnvironment) {
        store = .appStore
        transactionId = purchase.transactionId
        originalTransactionId = purchase.originalTransactionId
        productId = purchase.productId
        quantity = purchase.quantity
        appAccountToken = nil
        self.environment = PurchaseEnvironment(apple: environment)
        purchaseDate = purchase.purchaseDate
        revocationDate = purchase.cancellationDate
        originalPurchaseDate = purchase.originalPurchaseDate
        expiresDate = purchase.subscriptionExpirationDate
        signedDate = purchase.purchaseDate
    }

    /// An in-app purchase of Apple's verifyReceipt answer, or `nil` without id or product.
    init?(_ inApp: VerifyReceiptResponse.InApp, environment: AppStoreEnvironment) {
        guard let transactionId = inApp.transactionId, let productId = inApp.productId else { return nil }
        store = .appStore
        self.transactionId = transactionId
        originalTransactionId = inApp.originalTransactionId ?? transactionId
        self.productId = productId
        quantity = inApp.quantity?.intValue ?? 1
        appAccountToken = inApp.appAccountToken.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        self.environment = PurchaseEnvironment(apple: environment)
        purchaseDate = inApp.purchaseDateValue ?? Date()
        revocationDate = inApp.isCancelled ? (inApp.cancellationDateValue ?? Date()) : nil
        originalPurchaseDate = inApp.originalPurchaseDateValue
        expiresDate = inApp.expiresDateValue
        signedDate = purchaseDate
        ownership = Ownership(apple: inApp.inAppOwnershipType)
        isUpgraded = inApp.isUpgraded?.boolValue == true
    }
}
