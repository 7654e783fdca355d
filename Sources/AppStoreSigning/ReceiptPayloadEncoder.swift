import AppStoreModel
import Foundation
import SwiftASN1

/// Encodes an ``AppStoreModel/AppReceipt`` as the payload Apple signs: a DER
/// `SET OF ReceiptAttribute`.
///
/// Optional fields that are `nil` are left out. Each in-app purchase becomes an
/// attribute 17 whose value is itself a DER `SET OF ReceiptAttribute`.
public enum ReceiptPayloadEncoder {
    /// Encodes a receipt's payload.
    ///
    /// - Parameter receipt: The receipt.
    /// - Returns: The DER `SET OF ReceiptAttribute`.
    /// - Throws: ``SigningError/receiptEncodingFailed(_:)`` or an ASN.1 encoding error.
    public static func encode(_ receipt: AppReceipt) throws -> [UInt8] {
        try encode(attributes(for: receipt))
    }

    /// Encodes attributes as a DER `SET OF ReceiptAttribute`, sorted as DER requires.
    ///
    /// - Parameter attributes: The attributes, in any order.
    /// - Returns: The DER bytes.
    /// - Throws: An ASN.1 encoding error.
    public static func encode(_ attributes: [ReceiptAttribute]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serializeSetOf(attributes.map(ReceiptAttributeNode.init(attribute:)))
        return serializer.serializedBytes
    }

    /// The top-level attributes of a receipt, in-app purchases included, so that a test
    /// can change or remove some before calling `encode(_:)` with attributes.
    ///
    /// The bundle id (2) is `bundleIdData` verbatim when that is non-empty, otherwise a
    /// UTF8String of `bundleId`.
    ///
    /// - Parameter receipt: The receipt.
    /// - Returns: The attributes.
    /// - Throws: ``SigningError/receiptEncodingFailed(_:)`` or an ASN.1 encoding error.
    public static func attributes(for receipt: AppReceipt) throws -> [ReceiptAttribute] {
        typealias T = ReceiptAttributeType
        var result: [ReceiptAttribute] = []
        if let receiptType = receipt.receiptType {
            result.append(try .utf8String(T.receiptType, receiptType))
        }
        if receipt.bundleIdData.isEmpty {
            result.append(try .utf8String(T.bundleId, receipt.bundleId))
        } else {
            result.append(.raw(T.bundleId, receipt.bundleIdData))
        }
        result.append(try .utf8String(T.appVersion, receipt.appVersion))
        result.append(.raw(T.opaqueValue, receipt.opaqueValue))
        result.append(.raw(T.sha1Hash, receipt.sha1Hash))
        result.append(try .date(T.creationDate, receipt.creationDate))
        if let originalAppVersion = receipt.originalAppVersion {
            result.append(try .utf8String(T.originalAppVersion, originalAppVersion))
        }
        if let originalPurchaseDate = receipt.originalPurchaseDate {
            result.append(try .date(T.originalPurchaseDate, originalPurchaseDate))
        }
        if let expirationDate = receipt.expirationDate {
            result.append(try .date(T.expirationDate, expirationDate))
        }
        for purchase in receipt.inAppPurchases {
            result.append(try .set(T.inAppPurchase, attributes(for: purchase)))
        }
        return result
    }

    /// The attributes of one in-app purchase record (the value of an attribute 17).
    ///
    /// - Parameter purchase: The in-app purchase.
    /// - Returns: The attributes.
    /// - Throws: ``SigningError/receiptEncodingFailed(_:)`` or an ASN.1 encoding error.
    public static func attributes(for purchase: InAppPurchase) throws -> [ReceiptAttribute] {
        typealias T = InAppAttributeType
        var result: [ReceiptAttribute] = [
            try .integer(T.quantity, Int64(purchase.quantity)),
            try .utf8String(T.productId, purchase.productId),
            try .utf8String(T.transactionId, purchase.transactionId),
            try .utf8String(T.originalTransactionId, purchase.originalTransactionId),
            try .date(T.purchaseDate, purchase.purchaseDate),
        ]
        let dates: [(Int, Date?)] = [
            (T.originalPurchaseDate, purchase.originalPurchaseDate),
            (T.subscriptionExpirationDate, purchase.subscriptionExpirationDate),
            (T.cancellationDate, purchase.cancellationDate),
        ]
        for case (let type, let date?) in dates {
            result.append(try .date(type, date))
        }
        if let webOrderLineItemId = purchase.webOrderLineItemId {
            result.append(try .integer(T.webOrderLineItemId, webOrderLineItemId))
        }
        let flags: [(Int, Bool?)] = [
            (T.isTrialPeriod, purchase.isTrialPeriod),
            (T.isInIntroOfferPeriod, purchase.isInIntroOfferPeriod),
        ]
        for case (let type, let flag?) in flags {
            result.append(try .integer(type, flag ? 1 : 0))
        }
        if let promotionalOfferId = purchase.promotionalOfferId {
            result.append(try .utf8String(T.promotionalOfferId, promotionalOfferId))
        }
        return result
    }

    /// Formats a date as receipts do: RFC 3339 in UTC with whole seconds, e.g.
    /// `2024-02-23T10:11:12Z`.
    ///
    /// - Parameter date: The date; fractions of a second are dropped.
    /// - Returns: The formatted date.
    public static func dateString(_ date: Date) -> String {
        RFC3339.string(from: date)
    }
}
