import SwiftASN1
import X509

/// Builds the PKCS#7 / CMS `ContentInfo` holding a `SignedData` the way Apple's receipts
/// are built (RFC 2315, RFC 5652): one signer, no signed attributes, the signature made
/// directly over the content.
enum SignedDataEncoder {
    /// The pieces of a signed container.
    struct Parts {
        /// The encapsulated content (the receipt payload).
        var content: [UInt8]
        /// The RSA signature over the content.
        var signature: [UInt8]
        /// The digest the signature used.
        var digest: ReceiptSigningOptions.Digest
        /// The DER certificates for the `certificates` field; none leaves the field out.
        var certificates: [[UInt8]]
        /// The signer's certificate, named by issuer and serial number.
        var signer: Certificate
    }

    /// Encodes the container.
    ///
    /// - Parameters:
    ///   - parts: What goes into the container.
    ///   - encoding: DER, or BER with indefinite lengths and a chunked content.
    /// - Returns: The encoded `ContentInfo`.
    static func encode(_ parts: Parts, encoding: ReceiptSigningOptions.Encoding) throws -> [UInt8] {
        let indefinite: Bool
        let content: ASN1Element
        switch encoding {
        case .der:
            indefinite = false
            content = .primitive(identifier: ASN1Element.octetString, contents: parts.content)
        case .berIndefiniteLength(let chunkSize):
            guard chunkSize > 0 else { throw SigningError.invalidChunkSize(chunkSize) }
            indefinite = true
            let chunks = stride(from: 0, to: parts.content.count, by: chunkSize).map { start in
                ASN1Element.primitive(
                    identifier: ASN1Element.octetString,
                    contents: Array(parts.content[start..<min(start + chunkSize, parts.content.count)])
                )
            }
            content = .constructed(
                identifier: ASN1Element.constructedOctetString,
                children: chunks,
                indefiniteLength: true
            )
        }

        let encapsulatedContentInfo = ASN1Element.constructed(
            identifier: ASN1Element.sequence,
            children: [
                .encoded(try der(ObjectIdentifiers.data)),
                .constructed(identifier: ASN1Element.contextZero, children: [content], indefiniteLength: indefinite),
            ],
            indefiniteLength: indefinite
        )
        var signedDataChildren: [ASN1Element] = [
            .encoded(try der(1)),
            .encoded(try digestAlgorithms(parts.digest)),
            encapsulatedContentInfo,
        ]
        if !parts.certificates.isEmpty {
            signedDataChildren.append(
                .constructed(
                    identifier: ASN1Element.contextZero,
                    children: parts.certificates.map(ASN1Element.encoded),
                    indefiniteLength: false
                )
            )
        }
        signedDataChildren.append(.encoded(try signerInfos(parts)))

        let contentInfo = ASN1Element.constructed(
            identifier: ASN1Element.sequence,
            children: [
                .encoded(try der(ObjectIdentifiers.signedData)),
                .constructed(
                    identifier: ASN1Element.contextZero,
                    children: [
                        .constructed(
                            identifier: ASN1Element.sequence,
                            children: signedDataChildren,
                            indefiniteLength: indefinite
                        )
                    ],
                    indefiniteLength: indefinite
                ),
            ],
            indefiniteLength: indefinite
        )
        return contentInfo.bytes
    }

    /// `digestAlgorithms SET OF DigestAlgorithmIdentifier` with the one digest.
    private static func digestAlgorithms(_ digest: ReceiptSigningOptions.Digest) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .set) { coder in
            try appendAlgorithmIdentifier(ObjectIdentifiers.digest(digest), to: &coder)
        }
        return serializer.serializedBytes
    }

    /// `signerInfos SET OF SignerInfo` with the one signer, version 1, no signed or
    /// unsigned attributes.
    private static func signerInfos(_ parts: Parts) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .set) { coder in
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(1)
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(parts.signer.issuer)
                    try coder.serialize(parts.signer.serialNumber.bytes)
                }
                try appendAlgorithmIdentifier(ObjectIdentifiers.digest(parts.digest), to: &coder)
                try appendAlgorithmIdentifier(ObjectIdentifiers.rsaEncryption, to: &coder)
                try coder.serialize(ASN1OctetString(contentBytes: parts.signature[...]))
            }
        }
        return serializer.serializedBytes
    }

    /// `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters NULL }`.
    private static func appendAlgorithmIdentifier(
        _ oid: ASN1ObjectIdentifier,
        to coder: inout DER.Serializer
    ) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(oid)
            try coder.serialize(ASN1Null())
        }
    }

    private static func der(_ value: some DERSerializable) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(value)
        return serializer.serializedBytes
    }

    /// The object identifiers the container uses.
    enum ObjectIdentifiers {
        static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
        static let data: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]
        static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
        static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
        static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]

        static func digest(_ digest: ReceiptSigningOptions.Digest) -> ASN1ObjectIdentifier {
            switch digest {
            case .sha256: return sha256
            case .sha1: return sha1
            }
        }
    }
}
