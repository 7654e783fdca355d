import AppStoreModel
import Foundation

/// Decodes the signed content of an app receipt, a DER `SET OF ReceiptAttribute`,
/// into an ``AppReceipt``. Attribute types it does not know are skipped.
///
/// The attributes are read in place with ``BERReader`` (no node tree, no array of
/// attributes); strings, integers and dates are read from their value's bytes.
enum ReceiptPayloadDecoder {

    static func decode(_ bytes: ArraySlice<UInt8>) throws(VerificationError) -> AppReceipt {
        var receiptType: String?
        var bundleId: String?
        var bundleIdData = Data()
        var appVersion: String?
        var opaqueValue = Data()
        var sha1Hash = Data()
        var creationDate: Date?
        var originalAppVersion: String?
        var originalPurchaseDate: Date?
        var expirationDate: Date?
        var inAppPurchases: [InAppPurchase] = []

        var attributes = try ReceiptAttributes(bytes, what: "receipt")
        while let attribute = try attributes.next() {
            switch attribute.type {
            case 0: receiptType = try string(attribute)
            case 2:
                bundleId = try string(attribute)
                bundleIdData = Data(attribute.value)
            case 3: appVersion = try string(attribute)
            case 4: opaqueValue = Data(attribute.value)
            case 5: sha1Hash = Data(attribute.value)
            case 12: creationDate = try date(attribute)
            case 17: inAppPurchases.append(try inAppPurchase(attribute.value))
            case 18: originalPurchaseDate = try date(attribute)
            case 19: originalAppVersion = try string(attribute)
            case 21: expirationDate = try date(attribute)
            default: continue
            }
        }
        guard let bundleId, let appVersion, let creationDate else {
            throw VerificationError(.malformedPayload, "the receipt lacks its bundle id, app version or creation date")
        }
        return AppReceipt(
            receiptType: receiptType,
            bundleId: bundleId,
            bundleIdData: bundleIdData,
            appVersion: appVersion,
            opaqueValue: opaqueValue,
            sha1Hash: sha1Hash,
            creationDate: creationDate,
            originalAppVersion: originalAppVersion,
            originalPurchaseDate: originalPurchaseDate,
            expirationDate: expirationDate,
            inAppPurchases: inAppPurchases
        )
    }

    private static func inAppPurchase(_ bytes: ArraySlice<UInt8>) throws(VerificationError) -> InAppPurchase {
        var quantity = 1
        var productId: String?
        var transactionId: String?
        var originalTransactionId: String?
        var purchaseDate: Date?
        var originalPurchaseDate: Date?
        var expirationDate: Date?
        var cancellationDate: Date?
        var webOrderLineItemId: Int64?
        var isTrialPeriod: Bool?
        var isInIntroOfferPeriod: Bool?
        var promotionalOfferId: String?

        var attributes = try ReceiptAttributes(bytes, what: "in-app purchase")
        while let attribute = try attributes.next() {
            switch attribute.type {
            case 1701: quantity = try integer(attribute)
            case 1702: productId = try string(attribute)
            case 1703: transactionId = try string(attribute)
            case 1704: purchaseDate = try date(attribute)
            case 1705: originalTransactionId = try string(attribute)
            case 1706: originalPurchaseDate = try date(attribute)
            case 1708: expirationDate = try date(attribute)
            case 1711: webOrderLineItemId = try integer(attribute)
            case 1712: cancellationDate = try date(attribute)
            case 1713: isTrialPeriod = try integer(attribute) as Int != 0
            case 1719: isInIntroOfferPeriod = try integer(attribute) as Int != 0
            case 1721: promotionalOfferId = try string(attribute)
            default: continue
            }
        }
        guard let productId, let transactionId, let purchaseDate else {
            throw VerificationError(
                .malformedPayload,
                "an in-app purchase lacks its product id, transaction id or purchase date"
            )
        }
        return InAppPurchase(
            quantity: quantity,
            productId: productId,
            transactionId: transactionId,
            originalTransactionId: originalTransactionId ?? transactionId,
            purchaseDate: purchaseDate,
            originalPurchaseDate: originalPurchaseDate,
            subscriptionExpirationDate: expirationDate,
            cancellationDate: cancellationDate,
            webOrderLineItemId: webOrderLineItemId,
            isTrialPeriod: isTrialPeriod,
            isInIntroOfferPeriod: isInIntroOfferPeriod,
            promotionalOfferId: promotionalOfferId
        )
    }

    private static func string(_ attribute: ReceiptAttribute) throws(VerificationError) -> String {
        guard let string = DERPrimitive.string(attribute.value) else {
            throw VerificationError(.malformedPayload, "receipt attribute \(attribute.type) is not a string")
        }
        return string
    }

    private static func integer<I: FixedWidthInteger>(_ attribute: ReceiptAttribute) throws(VerificationError) -> I {
        guard let value = DERPrimitive.integer(attribute.value), let integer = I(exactly: value) else {
            throw VerificationError(.malformedPayload, "receipt attribute \(attribute.type) is not an integer")
        }
        return integer
    }

    /// A date attribute: an IA5String in RFC 3339 form; empty means absent.
    private static func date(_ attribute: ReceiptAttribute) throws(VerificationError) -> Date? {
        guard let (tag, text) = DERPrimitive.read(attribute.value), DERPrimitive.isString(tag) else {
            throw VerificationError(.malformedPayload, "receipt attribute \(attribute.type) is not a string")
        }
        if text.isEmpty { return nil }
        guard let date = RFC3339Date.parse(text) else {
            throw VerificationError(.malformedPayload, "receipt attribute \(attribute.type) is not an RFC 3339 date")
        }
        return date
    }
}
