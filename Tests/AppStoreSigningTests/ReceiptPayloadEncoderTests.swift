import AppStoreModel
import AppStoreSigning
import Foundation
import SwiftASN1
import Testing

@Suite("ReceiptPayloadEncoder")
struct ReceiptPayloadEncoderTests {
    @Test("top-level attributes carry Apple's types and value encodings")
    func topLevel() throws {
        let receipt = Fixtures.receipt()
        let attributes = try decodeAttributes(ReceiptPayloadEncoder.encode(receipt))
        #expect(attributes.allSatisfy { $0.version == 1 })

        func value(_ type: Int) throws -> [UInt8] {
            let matches = attributes.filter { $0.type == type }
            try #require(matches.count == 1, "attribute \(type) appears \(matches.count) times")
            return matches[0].value
        }
        #expect(try ASN1UTF8String(derEncoded: value(0)) == ASN1UTF8String("ProductionSandbox"))
        #expect(try ASN1UTF8String(derEncoded: value(2)) == ASN1UTF8String("com.example.storekeeper"))
        #expect(try ASN1UTF8String(derEncoded: value(3)) == ASN1UTF8String("42"))
        #expect(try value(4) == [0x01, 0x02, 0x03, 0x04])
        #expect(try value(5) == [UInt8](repeating: 0xAB, count: 20))
        #expect(try ASN1IA5String(derEncoded: value(12)) == ASN1IA5String("2024-02-23T10:11:12Z"))
        #expect(try ASN1IA5String(derEncoded: value(18)) == ASN1IA5String("2024-02-22T10:11:12Z"))
        #expect(try ASN1UTF8String(derEncoded: value(19)) == ASN1UTF8String("1.0"))
        #expect(!attributes.contains { $0.type == 21 })
        #expect(attributes.filter { $0.type == 17 }.count == 2)
    }

    @Test("in-app purchases are nested SETs with every present field")
    func inAppPurchases() throws {
        let attributes = try decodeAttributes(ReceiptPayloadEncoder.encode(Fixtures.receipt()))
        let purchases = try attributes.filter { $0.type == 17 }.map { try decodeAttributes($0.value) }
        let subscription = try #require(
            purchases.first { purchase in
                purchase.contains {
                    $0.type == 1702 && (try? ASN1UTF8String(derEncoded: $0.value)) == "com.example.monthly"
                }
            }
        )
        func value(_ type: Int) throws -> [UInt8] {
            try #require(subscription.first { $0.type == type }).value
        }
        #expect(try Int(derEncoded: value(1701)) == 1)
        #expect(try ASN1UTF8String(derEncoded: value(1703)) == "2000000000000001")
        #expect(try ASN1UTF8String(derEncoded: value(1705)) == "2000000000000000")
        #expect(try ASN1IA5String(derEncoded: value(1704)) == "2024-02-23T09:11:12Z")
        #expect(try ASN1IA5String(derEncoded: value(1706)) == "2024-02-23T08:11:12Z")
        #expect(try ASN1IA5String(derEncoded: value(1708)) == "2024-03-24T10:11:12Z")
        #expect(try Int64(derEncoded: value(1711)) == 1_000_000_123)
        #expect(try Int(derEncoded: value(1713)) == 0)
        #expect(try Int(derEncoded: value(1719)) == 1)
        #expect(try ASN1UTF8String(derEncoded: value(1721)) == "offer-1")
        #expect(!subscription.contains { $0.type == 1712 })

        let consumable = try #require(purchases.first { $0.count != subscription.count })
        #expect(Set(consumable.map(\.type)) == [1701, 1702, 1703, 1704, 1705])
    }

    @Test("the payload is DER: parseable by DER.parse and sorted")
    func derSorted() throws {
        let payload = try ReceiptPayloadEncoder.encode(Fixtures.receipt())
        let root = try DER.parse(payload)
        guard case .constructed(let children) = root.content else {
            Issue.record("payload is not constructed")
            return
        }
        let encodings = children.map { Array($0.encodedBytes) }
        for (earlier, later) in zip(encodings, encodings.dropFirst()) {
            #expect(!later.lexicographicallyPrecedes(earlier))
        }
    }

    @Test("non-empty bundleIdData is written verbatim")
    func bundleIdData() throws {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1UTF8String("com.example.original"))
        let original = serializer.serializedBytes
        var receipt = Fixtures.receipt()
        receipt.bundleIdData = Data(original)
        let attributes = try decodeAttributes(ReceiptPayloadEncoder.encode(receipt))
        #expect(attributes.first { $0.type == 2 }?.value == original)
    }

    @Test("attribute lists can be edited before encoding")
    func editedAttributes() throws {
        var attributes = try ReceiptPayloadEncoder.attributes(for: Fixtures.receipt())
        attributes.removeAll { $0.type == ReceiptAttributeType.bundleId }
        attributes.append(try .ia5String(ReceiptAttributeType.bundleId, "com.example.wrongtype"))
        attributes.append(ReceiptAttribute(type: 9_999, version: 7, value: [0xDE, 0xAD]))
        let decoded = try decodeAttributes(ReceiptPayloadEncoder.encode(attributes))
        #expect(
            try ASN1IA5String(derEncoded: #require(decoded.first { $0.type == 2 }).value) == "com.example.wrongtype")
        #expect(decoded.contains(DecodedAttribute(type: 9_999, version: 7, value: [0xDE, 0xAD])))
        #expect(throws: SigningError.self) {
            try ReceiptAttribute.ia5String(2, "naïve")
        }
    }

    @Test("dates are RFC 3339 UTC with whole seconds")
    func dateStrings() {
        #expect(
            ReceiptPayloadEncoder.dateString(Fixtures.creationDate.addingTimeInterval(0.999)) == "2024-02-23T10:11:12Z")
        #expect(ReceiptPayloadEncoder.dateString(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ReceiptPayloadEncoder.dateString(Date(timeIntervalSince1970: 4_102_444_799)) == "2099-12-31T23:59:59Z")
    }
}
