import Foundation
import SwiftASN1

/// One `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET
/// STRING }` of an app receipt's payload.
///
/// The factory methods wrap a value the way Apple does; build an attribute directly to
/// put arbitrary bytes in `value`, e.g. for a malformed receipt.
public struct ReceiptAttribute: Hashable, Sendable {
    /// The attribute type; see ``ReceiptAttributeType`` and ``InAppAttributeType``.
    public var type: Int
    /// The attribute version; 1 unless a test needs otherwise.
    public var version: Int
    /// The contents of the `value` OCTET STRING: usually a DER value, raw bytes for the
    /// opaque value and hash.
    public var value: [UInt8]

    /// Creates an attribute from its parts.
    ///
    /// - Parameters:
    ///   - type: The attribute type.
    ///   - version: The attribute version.
    ///   - value: The contents of the value OCTET STRING.
    public init(type: Int, version: Int = 1, value: [UInt8]) {
        self.type = type
        self.version = version
        self.value = value
    }

    /// An attribute whose value is a DER UTF8String.
    ///
    /// - Parameters:
    ///   - type: The attribute type.
    ///   - string: The string.
    /// - Returns: The attribute.
    public static func utf8String(_ type: Int, _ string: String) throws -> ReceiptAttribute {
        ReceiptAttribute(type: type, value: try derEncoded(ASN1UTF8String(string)))
    }

    /// An attribute whose value is a DER IA5String.
    ///
    /// - Parameters:
    ///   - type: The attribute type.
    ///   - string: The string; it must be ASCII.
    /// - Returns: The attribute.
    /// - Throws: ``SigningError/receiptEncodingFailed(_:)`` for a non-ASCII string.
    public static func ia5String(_ type: Int, _ string: String) throws -> ReceiptAttribute {
        let ia5: ASN1IA5String
        do {
            ia5 = try ASN1IA5String(string)
        } catch {
            throw SigningError.receiptEncodingFailed("attribute \(type): \"\(string)\" is not an IA5String")
        }
        return ReceiptAttribute(type: type, value: try derEncoded(ia5))
    }

    /// An attribute whose value is an IA5String RFC 3339 date in UTC with whole seconds,
    /// e.g. `2024-02-23T10:11:12Z`.
    ///
    /// - Parameters:
    ///   - type: The attribute type.
    ///   - date: The date; fractions of a second are dropped.
    /// - Returns: The attribute.
    public static func date(_ type: Int, _ date: Date) throws -> ReceiptAttribute {
        try ia5String(type, RFC3339.string(from: date))
    }

    /// An attribute whose value is a DER INTEGER.
    ///
    /// - Parameters:
    ///   - type: The attribute type.
    ///   - integer: The number.
    /// - Returns: The attribute.
    public static func integer(_ type: Int, _ integer: Int64) throws -> ReceiptAttribute {
        ReceiptAttribute(type: type, value: try derEncoded(integer))
    }

    /// An attribute whose value is raw bytes, not wrapped in any DER type, as Apple
    /// stores the opaque value and the SHA-1 hash.
    ///
    /// - Parameters:
    ///   - type: The attribute type.
    ///   - bytes: The bytes.
    /// - Returns: The attribute.
    public static func raw(_ type: Int, _ bytes: some DataProtocol) -> ReceiptAttribute {
        ReceiptAttribute(type: type, value: Array(bytes))
    }

    /// An attribute whose value is a DER SET OF nested attributes, as for each in-app
    /// purchase (type 17).
    ///
    /// - Parameters:
    ///   - type: The attribute type.
    ///   - attributes: The nested attributes; DER sorts them.
    /// - Returns: The attribute.
    public static func set(_ type: Int, _ attributes: [ReceiptAttribute]) throws -> ReceiptAttribute {
        ReceiptAttribute(type: type, value: try ReceiptPayloadEncoder.encode(attributes))
    }

    private static func derEncoded(_ value: some DERSerializable) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(value)
        return serializer.serializedBytes
    }
}

/// A ``ReceiptAttribute`` as a DER SEQUENCE.
struct ReceiptAttributeNode: DERSerializable {
    var attribute: ReceiptAttribute

    func serialize(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(attribute.type)
            try coder.serialize(attribute.version)
            try coder.serialize(ASN1OctetString(contentBytes: attribute.value[...]))
        }
    }
}
