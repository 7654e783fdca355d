import AppStoreModel

/// What a device asks the store to buy (`POST /emulator/v1/devices/{deviceId}/purchases`).
public struct PurchaseRequest: Codable, Hashable, Sendable {
    public var productId: String
    /// StoreKit 2's `appAccountToken`: a UUID binding the purchase to the game's order.
    public var appAccountToken: String?
    public var quantity: Int?
    /// Overrides the device's environment for this purchase.
    public var environment: AppStoreEnvironment?
    /// Whether the answer carries the device's app receipt (``PurchaseResult/appReceipt``);
    /// absent means `true`. A caller that reports the signed transaction only (StoreKit 2)
    /// sends `false` and spares the emulator an RSA signature per charge.
    public var includeAppReceipt: Bool?

    /// Creates a request.
    public init(
        productId: String, appAccountToken: String? = nil, quantity: Int? = nil,
        environment: AppStoreEnvironment? = nil,
        includeAppReceipt: Bool? = nil
    ) {
        self.productId = productId
        self.appAccountToken = appAccountToken
        self.quantity = quantity
        self.environment = environment
        self.includeAppReceipt = includeAppReceipt
    }
}

/// The store's answer to a purchase: charged, or waiting for Ask to Buy approval.
public struct PurchaseResult: Codable, Hashable, Sendable {
    /// `purchased` or `pending`.
    public var outcome: String
    public var transactionId: String?
    /// The signed transaction (StoreKit 2's `jwsRepresentation`).
    public var signedTransaction: String?
    /// The device's app receipt now (base64 PKCS#7, StoreKit 1); absent when the request's
    /// ``PurchaseRequest/includeAppReceipt`` was `false`.
    public var appReceipt: String?
    /// Set when the outcome is `pending`: approve or decline it by this id.
    public var pendingId: String?
    /// The customer's order id, as on Apple's e-mail receipt (Look Up Order ID): `MK` and
    /// eight uppercase letters or digits. With `purchased`.
    public var orderId: String?
    /// The account's app download transaction (StoreKit's `AppTransaction.appTransactionID`),
    /// the same in every transaction of the device. With `purchased`.
    public var appTransactionId: String?
}

/// A transaction as a device's StoreKit sees it.
public struct DeviceTransaction: Codable, Hashable, Sendable {
    public var transactionId: String
    public var productId: String
    /// The token given at purchase, or `nil` when it was not given.
    public var appAccountToken: String?
    public var signedTransaction: String
    /// The customer's order id, as on Apple's e-mail receipt (Look Up Order ID).
    public var orderId: String
    /// The account's app download transaction (StoreKit's `Transaction.appTransactionID`).
    public var appTransactionId: String?
}

/// The device settings a test can change (`PUT /emulator/v1/devices/{deviceId}`).
public struct DeviceSettings: Codable, Hashable, Sendable {
    public var environment: AppStoreEnvironment?
    public var askToBuy: Bool?
    /// The Apple account signed in on the device (non-empty).
    public var appleAccount: String?
    /// Whether the account's payment method fails renewals.
    public var billingFails: Bool?

    /// Creates settings; `nil` leaves a setting as it is.
    public init(
        environment: AppStoreEnvironment? = nil, askToBuy: Bool? = nil, appleAccount: String? = nil,
        billingFails: Bool? = nil
    ) {
        self.environment = environment
        self.askToBuy = askToBuy
        self.appleAccount = appleAccount
        self.billingFails = billingFails
    }
}
