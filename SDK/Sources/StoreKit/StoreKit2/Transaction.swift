import Foundation

/// Information that represents the customer's purchase of a product in your app.
///
/// Apple: `struct Transaction` (https://developer.apple.com/documentation/storekit/transaction).
/// Decoded from the JWS the emulator signed; two transactions are equal when their JWS is.
public struct Transaction: Identifiable, Hashable, Sendable, JWSBacked {
    /// The unique identifier for the transaction.
    public let id: UInt64
    /// The original transaction identifier of a purchase.
    public let originalID: UInt64
    /// A unique ID that identifies subscription purchase events across devices.
    public let webOrderLineItemID: String?
    /// The product identifier of the in-app purchase.
    public let productID: String
    /// The identifier of the subscription group that the subscription belongs to.
    public let subscriptionGroupID: String?
    /// The bundle identifier for the app.
    public let appBundleID: String
    /// The date that the App Store charged the user's account.
    public let purchaseDate: Date
    /// The date of purchase for the original transaction.
    public let originalPurchaseDate: Date
    /// The date the subscription expires or renews.
    public let expirationDate: Date?
    /// The number of consumable products purchased.
    public let purchasedQuantity: Int
    /// A Boolean that indicates whether the user upgraded to another subscription.
    public let isUpgraded: Bool
    /// A value that indicates whether the transaction was purchased by the user, or is
    /// made available to them through Family Sharing.
    public let ownershipType: Transaction.OwnershipType
    /// The date that the App Store signed the JWS transaction.
    public let signedDate: Date
    /// The date that the App Store refunded the transaction or revoked it from family sharing.
    public let revocationDate: Date?
    /// The reason that the App Store refunded the transaction or revoked it from family sharing.
    public let revocationReason: Transaction.RevocationReason?
    /// The type of the in-app purchase.
    public let productType: Product.ProductType
    /// A UUID that associates the transaction with a user on your own service.
    public let appAccountToken: UUID?
    /// The server environment that generated and signed the transaction.
    public let environment: AppStore.Environment
    /// The reason for the purchase transaction, which indicates whether it's a customer's
    /// purchase or an auto-renewable subscription renewal that the system initiates.
    public let reason: Transaction.Reason
    /// The price of the in-app purchase that the system records in the transaction.
    public let price: Decimal?
    /// The currency of the price of the product.
    public let currency: Locale.Currency?
    /// A JSON representation of the transaction.
    public let jsonRepresentation: Data
    /// The device verification value (empty: the emulator signs none).
    public let deviceVerification: Data
    /// The UUID of the device verification value.
    public let deviceVerificationNonce: UUID
    /// The unique identifier of the app download transaction.
    public let appTransactionID: String

    package let jwsStorage: JWSStorage

    package init(payload data: Data, storage: JWSStorage) throws {
        let payload = try JSONDecoder().decode(TransactionPayload.self, from: data)
        guard let id = UInt64(payload.transactionId) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "transactionId is not a number"))
        }
        self.id = id
        self.originalID = payload.originalTransactionId.flatMap(UInt64.init) ?? id
        self.webOrderLineItemID = payload.webOrderLineItemId
        self.productID = payload.productId
        self.subscriptionGroupID = payload.subscriptionGroupIdentifier
        self.appBundleID = payload.bundleId ?? ""
        self.purchaseDate = Date(milliseconds: payload.purchaseDate)
        self.originalPurchaseDate = Date(milliseconds: payload.originalPurchaseDate ?? payload.purchaseDate)
        self.expirationDate = payload.expiresDate.map(Date.init(milliseconds:))
        self.purchasedQuantity = payload.quantity ?? 1
        self.isUpgraded = payload.isUpgraded ?? false
        self.ownershipType = OwnershipType(rawValue: payload.inAppOwnershipType ?? "PURCHASED")
        self.signedDate = storage.signedDate
        self.revocationDate = payload.revocationDate.map(Date.init(milliseconds:))
        self.revocationReason = payload.revocationReason.map(RevocationReason.init(rawValue:))
        self.productType = Product.ProductType(rawValue: payload.type)
        self.appAccountToken = payload.appAccountToken.flatMap(UUID.init(uuidString:))
        self.environment = AppStore.Environment(rawValue: payload.environment ?? "Sandbox")
        self.reason = Reason(rawValue: payload.transactionReason ?? "PURCHASE")
        self.price = payload.price.map { Decimal($0) / 1000 }
        self.currency = payload.currency.map { Locale.Currency($0) }
        self.jsonRepresentation = data
        self.deviceVerification = payload.deviceVerification.flatMap { Data(base64Encoded: $0) } ?? Data()
        self.deviceVerificationNonce = payload.deviceVerificationNonce.flatMap(UUID.init(uuidString:)) ?? UUID()
        self.appTransactionID = payload.appTransactionId ?? ""
        self.jwsStorage = storage
    }

    /// Indicates to the App Store that the app delivered the purchased content or enabled
    /// the service to finish the transaction. Errors are not reported, as Apple's: the
    /// transaction stays unfinished and comes again.
    public func finish() async {
        guard let client = try? StoreKit2Call.client() else { return }
        let id = String(id)
        _ = try? await StoreKit2Call.run { try client.finish(transactionId: id) }
    }

    public static func == (lhs: Transaction, rhs: Transaction) -> Bool {
        lhs.jwsStorage.jws.compact == rhs.jwsStorage.jws.compact
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(jwsStorage.jws.compact)
    }
}

extension Transaction {
    /// The ownership types for in-app purchases.
    public struct OwnershipType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        /// Creates an ownership type from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The current user is the purchaser of the transaction.
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        /// The current user is a family member with access through Family Sharing.
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    }

    /// Reasons that describe why the App Store refunded the transaction or revoked it
    /// from family sharing.
    public struct RevocationReason: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        /// Creates a revocation reason from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The App Store refunded because of an issue in your app.
        public static let developerIssue = RevocationReason(rawValue: 1)
        /// The App Store refunded for another reason.
        public static let other = RevocationReason(rawValue: 0)
    }

    /// The reasons for a transaction.
    public struct Reason: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        /// Creates a reason from its raw value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A transaction reason that indicates a purchase the customer initiates.
        public static let purchase = Reason(rawValue: "PURCHASE")
        /// A transaction reason that indicates an auto-renewable subscription renewal.
        public static let renewal = Reason(rawValue: "RENEWAL")
    }

    /// Verifies a signed transaction from the emulator.
    package static func verified(_ compact: String, _ configuration: StoreKitConfiguration) throws
        -> VerificationResult<Transaction>
    {
        try SignedPayload.verify(compact, configuration: configuration) { try Transaction(payload: $0, storage: $1) }
    }
}
