import Foundation

/// The emulator's device API, as JSON: what StoreKit for Linux sends and reads
/// (docs/emulator-openapi.yaml).
package enum EmulatorWire {
    /// A catalog product (`GET`/`PUT /emulator/v1/products`).
    package struct Product: Codable, Hashable, Sendable {
        package var productId: String
        package var type: String
        package var price: Int64
        package var currency: String
        package var displayName: String?
        package var localizedDescription: String?
        package var subscriptionGroupIdentifier: String?
        package var subscriptionGroupLevel: Int?
        package var subscriptionPeriodSeconds: Int64?
        package var gracePeriodSeconds: Int64?

        package init(
            productId: String, type: String, price: Int64, currency: String, displayName: String?,
            localizedDescription: String?, subscriptionGroupIdentifier: String? = nil,
            subscriptionGroupLevel: Int? = nil, subscriptionPeriodSeconds: Int64? = nil,
            gracePeriodSeconds: Int64? = nil
        ) {
            self.productId = productId
            self.type = type
            self.price = price
            self.currency = currency
            self.displayName = displayName
            self.localizedDescription = localizedDescription
            self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
            self.subscriptionGroupLevel = subscriptionGroupLevel
            self.subscriptionPeriodSeconds = subscriptionPeriodSeconds
            self.gracePeriodSeconds = gracePeriodSeconds
        }
    }

    /// `POST …/purchases` body.
    package struct PurchaseRequest: Encodable, Sendable {
        package var productId: String
        package var appAccountToken: String?
        package var quantity: Int?
        package var includeAppReceipt: Bool?
    }

    /// A purchase's answer: `purchased` with the signed transaction, or `pending`.
    package struct PurchaseResult: Decodable, Sendable {
        package var outcome: String
        package var transactionId: String?
        package var signedTransaction: String?
        package var appReceipt: String?
        package var pendingId: String?
    }

    /// A transaction as the device API lists it.
    package struct DeviceTransaction: Decodable, Hashable, Sendable {
        package var transactionId: String
        package var productId: String
        package var appAccountToken: String?
        package var signedTransaction: String
        package var orderId: String?
        package var appTransactionId: String?
    }

    /// A purchase waiting for Ask to Buy approval.
    /// A promoted purchase waiting for the device's app.
    package struct Promotion: Codable, Hashable, Sendable {
        package var promotionId: String
        package var productId: String
    }

    package struct PendingPurchase: Decodable, Hashable, Sendable {
        package var pendingId: String
        package var productId: String
        package var quantity: Int
        package var appAccountToken: String?
    }

    /// The device's settings.
    package struct Device: Codable, Sendable {
        package var deviceId: String?
        package var environment: String?
        package var askToBuy: Bool?
        package var appleAccount: String?

        package init(askToBuy: Bool? = nil, appleAccount: String? = nil) {
            self.askToBuy = askToBuy
            self.appleAccount = appleAccount
        }
    }

    /// Get All Subscription Statuses, as `…/subscription-statuses` answers it.
    package struct StatusResponse: Decodable, Sendable {
        package struct Group: Decodable, Sendable {
            package var subscriptionGroupIdentifier: String
            package var lastTransactions: [Item]?
        }
        package struct Item: Decodable, Sendable {
            package var status: Int
            package var originalTransactionId: String
            package var signedTransactionInfo: String
            package var signedRenewalInfo: String
        }
        package var data: [Group]?
    }

    /// The emulator's error body.
    package struct ErrorBody: Decodable, Sendable {
        package var error: String?
        package var message: String?
    }
}

/// The emulator refused a request, or answered what StoreKit for Linux cannot read.
public struct EmulatorRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status (0 when the answer could not be read).
    public var status: Int
    /// The emulator's error code (`unknown_product`, …).
    public var code: String
    /// The emulator's message.
    public var message: String

    public var description: String { "emulator answered \(status) \(code): \(message)" }
}
