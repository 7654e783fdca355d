import AppStoreModel
import Foundation
import Ledger

extension SupportPages {
    /// The fields of a transaction Apple signed, as rows of a field named in the caller's
    /// language (`name` keeps Apple's) and a value for people: dates formatted, money in
    /// its currency, Apple's codes explained; absent fields left out, in a fixed order.
    func appleSignedRows(_ payload: JWSTransactionDecodedPayload, _ caller: ConsoleCaller) -> [[String: any Sendable]] {
        func date(_ value: Date?) -> String? { value.map { ConsoleFormat.date($0) } }
        func named(_ prefix: String, _ code: String?) -> String? { code.map { label(prefix, $0, caller) } }
        let fields: [(String, String?)] = [
            ("transactionId", payload.transactionId),
            ("originalTransactionId", payload.originalTransactionId),
            ("productId", payload.productId),
            ("environment", named("environment_", payload.environment?.rawValue)),
            ("purchaseDate", date(payload.purchaseDateValue)),
            ("originalPurchaseDate", date(payload.originalPurchaseDateValue)),
            ("signedDate", date(payload.signedDateValue)),
            ("expiresDate", date(payload.expiresDateValue)),
            ("quantity", payload.quantity.map(String.init)),
            ("type", named("product_type_", payload.type?.rawValue)),
            ("appAccountToken", payload.appAccountToken),
            ("inAppOwnershipType", named("ownership_", payload.inAppOwnershipType?.rawValue)),
            ("transactionReason", named("transaction_reason_", payload.transactionReason?.rawValue)),
            ("revocationDate", date(payload.revocationDateValue)),
            (
                "revocationReason",
                payload.revocationReason.map {
                    "\($0.rawValue) — " + label("revocation_reason_", "\($0.rawValue)", caller)
                }
            ),
            ("revocationPercentage", payload.revocationPercentage.map { ConsoleShare.percent($0) }),
            ("storefront", payload.storefront),
            (
                "price",
                payload.price.map { price in
                    payload.currency.map { ConsoleMoney(milliunits: price, currency: $0).formatted } ?? String(price)
                }
            ),
            ("bundleId", payload.bundleId),
            ("appTransactionId", payload.appTransactionId),
            ("webOrderLineItemId", payload.webOrderLineItemId),
        ]
        return fields.compactMap { name, value in
            value.map { ["name": name, "label": label("apple_field_", name, caller), "value": $0] }
        }
    }
}

/// Shares Apple writes in milliunits (100,000 is all), as percentages.
enum ConsoleShare {
    /// `33.3%` for 33,300.
    static func percent(_ milliunits: Int) -> String {
        let tenths = (Double(milliunits) / 100).rounded() / 10
        return (tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)) + "%"
    }
}
