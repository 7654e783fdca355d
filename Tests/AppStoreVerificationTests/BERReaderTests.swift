import SwiftASN1
import Testing

@testable import AppStoreVerification

/// The lean BER/DER reader behind the receipt container and attributes.
struct BERReaderTests {
    private typealias Tag = BERReader.Tag

    @Test func definiteDERIsReadInPlace() throws {
        // SEQUENCE { INTEGER 5, OCTET STRING AA BB }, then the end.
        let bytes: [UInt8] = [0x30, 0x07, 0x02, 0x01, 0x05, 0x04, 0x02, 0xAA, 0xBB]
        var reader = BERReader(bytes[...], code: .malformedContainer)
        let sequence = try reader.read(Tag.sequence, "sequence")
        #expect(sequence.encoding == 0..<9)
        #expect(sequence.contents == 2..<9)
        #expect(reader.isAtEnd)
        var fields = try reader.children(of: sequence, "sequence")
        let integer = try fields.read(Tag.integer, "integer")
        #expect(Array(bytes[integer.contents]) == [0x05])
        let octets = try fields.read("octets")
        #expect(Array(try fields.octetString(octets, "octets")) == [0xAA, 0xBB])
        #expect(fields.isAtEnd)
        #expect(fields.nextIdentifier == nil)
    }

    @Test func indefiniteBERAndChunkedOctetStringsAreRead() throws {
        // SEQUENCE (indefinite) { INTEGER 5, OCTET STRING (indefinite) { AA BB, (CC) } }.
        let bytes: [UInt8] = [
            0x30, 0x80, 0x02, 0x01, 0x05,
            0x24, 0x80, 0x04, 0x02, 0xAA, 0xBB, 0x24, 0x03, 0x04, 0x01, 0xCC, 0x00, 0x00,
            0x00, 0x00,
        ]
        var reader = BERReader(bytes[...], code: .malformedContainer)
        let sequence = try reader.read(Tag.sequence, "sequence")
        #expect(sequence.encoding == 0..<bytes.count)
        #expect(sequence.contents == 2..<(bytes.count - 2))
        #expect(reader.isAtEnd)
        var fields = try reader.children(of: sequence, "sequence")
        _ = try fields.read(Tag.integer, "integer")
        let octets = try fields.read(Tag.constructedOctetString, "octets")
        #expect(Array(try fields.octetString(octets, "octets")) == [0xAA, 0xBB, 0xCC])
        #expect(fields.isAtEnd)
    }

    @Test func longAndNonMinimalLengthsAreRead() throws {
        let bytes: [UInt8] = [0x04, 0x82, 0x00, 0x03, 0x01, 0x02, 0x03]
        var reader = BERReader(bytes[...], code: .malformedPayload)
        let octets = try reader.read(Tag.octetString, "octets")
        #expect(octets.contents == 4..<7)
    }

    @Test(arguments: [
        [UInt8](),  // nothing
        [0x30],  // no length
        [0x30, 0x05, 0x02, 0x01],  // contents shorter than the length
        [0x30, 0x84, 0xFF, 0xFF],  // length octets cut
        [0x30, 0x89, 0, 0, 0, 0, 0, 0, 0, 0, 1],  // nine length octets
        [0x30, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],  // length beyond any buffer
        [0x30, 0x80, 0x02, 0x01, 0x05],  // indefinite without end-of-contents
        [0x30, 0x80, 0x02, 0x01, 0x05, 0x00],  // half an end-of-contents
        [0x30, 0x80, 0x00, 0x01],  // malformed end-of-contents
        [0x04, 0x80, 0x00, 0x00],  // indefinite length on a primitive
        [0x00, 0x00],  // end-of-contents where an element belongs
        [0x1F, 0x81, 0x81, 0x81, 0x81, 0x01, 0x00],  // tag number of more than four octets
        [0x1F, 0x81],  // high tag number cut
    ])
    func malformedFramingThrowsWithTheReadersCode(bytes: [UInt8]) {
        var reader = BERReader(bytes[...], code: .malformedPayload)
        let error = #expect(throws: VerificationError.self) { _ = try reader.read("element") }
        #expect(error?.code == .malformedPayload)
    }

    @Test func everyTruncationOfAValidEncodingThrows() throws {
        let encodings: [[UInt8]] = [
            [0x30, 0x80, 0x02, 0x01, 0x05, 0x24, 0x80, 0x04, 0x02, 0xAA, 0xBB, 0x00, 0x00, 0x00, 0x00],
            [0x30, 0x81, 0x08, 0x31, 0x06, 0x30, 0x04, 0x04, 0x02, 0xAA, 0xBB],
        ]
        for bytes in encodings {
            var whole = BERReader(bytes[...], code: .malformedContainer)
            _ = try whole.read("element")
            #expect(whole.isAtEnd)
            for length in 0..<bytes.count {
                var reader = BERReader(bytes[..<length], code: .malformedContainer)
                #expect(throws: VerificationError.self, "prefix of \(length) bytes") { _ = try reader.read("element") }
            }
        }
    }

    @Test func deepIndefiniteNestingIsRefusedByTheDepthLimit() {
        let deep = (0..<20_000).map { UInt8($0 % 2 == 0 ? 0x30 : 0x80) }
        var reader = BERReader(deep[...], code: .malformedContainer)
        #expect(throws: VerificationError.self) { _ = try reader.read("element") }

        var nested: [UInt8] = [0x04, 0x00]
        for _ in 0..<(BERReader.maximumDepth + 1) { nested = [0x24, UInt8(nested.count)] + nested }
        var definite = BERReader(nested[...], code: .malformedContainer)
        let octets = try? definite.read("octets")
        #expect(octets != nil, "the framing itself is fine")
        if let octets {
            #expect(throws: VerificationError.self) { _ = try definite.octetString(octets, "octets") }
        }
    }

    /// The lean reader finds in Apple's receipts (DER) and Xcode's (BER, indefinite
    /// lengths) exactly the parts a full swift-asn1 tree holds.
    @Test(arguments: [
        "receipts/receipt-production.b64", "receipts/receipt-sandbox-g5.b64", "receipts/receipt-sandbox-legacy.b64",
        "receipts/receipt-xcode.b64", "receipts/receipt-xcode-with-purchases.b64",
    ])
    func containerPartsMatchAFullTreeParse(path: String) throws {
        let der = try #require(Base64.decode(try TestVectors.data(path), alphabet: .standard))
        let container = try PKCS7SignedData(berEncoded: der)
        let tree = try TreeParts(der)
        #expect(Array(container.content) == tree.content)
        #expect(container.certificateEncodings.map { Array($0) } == tree.certificates)
        #expect(Array(container.signerIdentifier) == tree.signerIdentifier)
        #expect(Array(container.signature) == tree.signature)
        _ = try ReceiptPayloadDecoder.decode(container.content)
    }

    @Test func everyTruncationOfARealReceiptIsRefused() throws {
        let der = try #require(
            Base64.decode(try TestVectors.data("receipts/receipt-xcode.b64"), alphabet: .standard))
        for length in 0..<der.count {
            #expect(throws: VerificationError.self) { _ = try PKCS7SignedData(berEncoded: Array(der[..<length])) }
        }
        #expect(throws: VerificationError.self) { _ = try PKCS7SignedData(berEncoded: der + [0x00]) }
    }
}

/// The container's parts as found in a swift-asn1 node tree (RFC 2315 positions).
private struct TreeParts {
    let content: [UInt8]
    let certificates: [[UInt8]]
    let signerIdentifier: [UInt8]
    let signature: [UInt8]

    init(_ der: [UInt8]) throws {
        let contentInfo = try Self.children(try BER.parse(der))
        let signedData = try Self.children(try Self.children(contentInfo[1])[0])
        let encapsulated = try Self.children(signedData[2])
        content = Array(try ASN1OctetString(berEncoded: try Self.children(encapsulated[1])[0]).bytes)
        certificates = try Self.children(signedData[3]).map { Array($0.encodedBytes) }
        let signerInfo = try Self.children(try Self.children(signedData[signedData.count - 1])[0])
        signerIdentifier = Array(signerInfo[1].encodedBytes)
        signature = Array(try ASN1OctetString(berEncoded: signerInfo[4]).bytes)
    }

    private static func children(_ node: ASN1Node) throws -> [ASN1Node] {
        guard case .constructed(let nodes) = node.content else {
            throw ASN1Error.invalidASN1Object(reason: "primitive")
        }
        return Array(nodes)
    }
}
