import AppStoreModel
import Foundation

/// The fields of a transaction Apple signed, as `dt`/`dd` rows for people: dates
/// formatted, absent fields left out.
enum AppleSignedValues {
    /// The rows of `payload`, in a fixed order.
    static func rows(_ payload: JWSTransactionDecodedPayload) -> [[String: any Sendable]] {
        func date(_ value: Date?) -> String? { value.map { ConsoleFormat.date($0) } }
        let fields: [(String, String?)] = [
            ("transactionId", payload.transactionId),
            ("originalTransactionId", payload.originalTransactionId),
            ("productId", payload.productId),
            ("environment", payload.environment?.rawValue),
            ("purchaseDate", date(payload.purchaseDateValue)),
            ("originalPurchaseDate", date(payload.originalPurchaseDateValue)),
            ("signedDate", date(payload.signedDateValue)),
            ("expiresDate", date(payload.expiresDateValue)),
            ("quantity", payload.quantity.map(String.init)),
            ("type", payload.type?.rawValue),
            ("appAccountToken", payload.appAccountToken),
            ("inAppOwnershipType", payload.inAppOwnershipType?.rawValue),
            ("transactionReason", payload.transactionReason?.rawValue),
            ("revocationDate", date(payload.revocationDateValue)),
            ("revocationReason", payload.revocationReason.map { String($0.rawValue) }),
            ("revocationPercentage", payload.revocationPercentage.map { ConsoleShare.percent($0) }),
            ("storefront", payload.storefront),
            ("price", payload.price.map { price in "\(Double(price) / 1_000) \(payload.currency ?? "")" }),
            ("bundleId", payload.bundleId),
            ("appTransactionId", payload.appTransactionId),
            ("webOrderLineItemId", payload.webOrderLineItemId),
        ]
        return fields.compactMap { name, value in value.map { ["name": name, "value": $0] } }
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
