import SwiftASN1
import X509

/// The parts of a PKCS#7 (CMS) SignedData container that receipt verification needs,
/// parsed from BER (indefinite lengths, chunked content) or DER.
///
/// swift-certificates' CMS support refuses Apple's receipts (the `rsaEncryption`
/// signer algorithm, SHA-1 identifiers without parameters, chunked content), hence this
/// small reader of RFC 2315 §9.1.
struct PKCS7SignedData: Sendable {
    /// The digest the signer applied to the content.
    enum DigestAlgorithm: String, Sendable {
        case sha1 = "SHA-1"
        case sha256 = "SHA-256"
    }

    /// The signed content (for a receipt: the DER receipt attribute set).
    let content: ArraySlice<UInt8>
    /// The encodings of the certificates the container carries, in order.
    let certificateEncodings: [ArraySlice<UInt8>]
    /// The encoded `issuerAndSerialNumber` naming the signer's certificate.
    let signerIdentifier: ArraySlice<UInt8>
    /// The signer's digest algorithm.
    let digestAlgorithm: DigestAlgorithm
    /// The RSA signature over the content.
    let signature: ArraySlice<UInt8>

    /// Object identifiers, as the contents octets of their DER encoding.
    private enum OID {
        static let signedData: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]  // 1.2.840.113549.1.7.2
        static let data: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]  // 1.2.840.113549.1.7.1
        static let sha1: [UInt8] = [0x2B, 0x0E, 0x03, 0x02, 0x1A]  // 1.3.14.3.2.26
        static let sha256: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]  // 2.16.840.1.101.3.4.2.1
        static let rsaSignatureAlgorithms: [[UInt8]] = [
            [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01],  // rsaEncryption, as Apple writes it
            [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x05],  // sha1WithRSAEncryption
            [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B],  // sha256WithRSAEncryption
        ]
    }

    private typealias Tag = BERReader.Tag

    /// Parses `bytes` as a ContentInfo holding SignedData with one signer.
    ///
    /// The container is walked with ``BERReader``: the carried certificates are only
    /// located (their bytes key the chain cache), not parsed; ``parseCertificates()``
    /// parses them when a chain has to be validated.
    init(berEncoded bytes: [UInt8]) throws(VerificationError) {
        var outer = BERReader(bytes[...], code: .malformedContainer)
        let root = try outer.read(Tag.sequence, "ContentInfo")
        try outer.requireEnd("the receipt")
        var contentInfo = try outer.children(of: root, "ContentInfo")
        guard contentInfo.matches(try contentInfo.read("ContentInfo.contentType"), oid: OID.signedData) else {
            throw VerificationError(.malformedContainer, "ContentInfo does not hold PKCS#7 SignedData")
        }
        let signedDataElement = try Self.explicit(&contentInfo, what: "ContentInfo.content")
        try Self.skipRemaining(&contentInfo, what: "ContentInfo")
        guard signedDataElement.identifier == Tag.sequence else {
            throw VerificationError(.malformedContainer, "SignedData: expected a SEQUENCE")
        }
        var signedData = try contentInfo.children(of: signedDataElement, "SignedData")
        _ = try signedData.read("SignedData.version")
        _ = try signedData.read("SignedData.digestAlgorithms")

        let encapsulated = try signedData.read(Tag.sequence, "SignedData.contentInfo")
        var encapsulatedFields = try signedData.children(of: encapsulated, "SignedData.contentInfo")
        guard encapsulatedFields.matches(try encapsulatedFields.read("contentInfo.contentType"), oid: OID.data) else {
            throw VerificationError(.malformedContainer, "the signed content is not PKCS#7 data")
        }
        let contentElement = try Self.explicit(&encapsulatedFields, what: "contentInfo.content")
        try Self.skipRemaining(&encapsulatedFields, what: "SignedData.contentInfo")
        content = try encapsulatedFields.octetString(contentElement, "the signed content")

        var certificates: [ArraySlice<UInt8>] = []
        if let identifier = signedData.nextIdentifier, Tag.isContext(identifier, 0) {
            let set = try signedData.read("SignedData.certificates")
            var certificateReader = try signedData.children(of: set, "SignedData.certificates")
            while !certificateReader.isAtEnd {
                certificates.append(bytes[try certificateReader.read("a carried certificate").encoding])
            }
        }
        if let identifier = signedData.nextIdentifier, Tag.isContext(identifier, 1) {
            _ = try signedData.read("SignedData.crls")  // unused
        }
        let signerInfos = try signedData.read(Tag.set, "SignedData.signerInfos")
        try signedData.requireEnd("SignedData")
        var signerInfoReader = try signedData.children(of: signerInfos, "SignedData.signerInfos")
        let signerInfo = try signerInfoReader.read("SignerInfo")
        guard signerInfoReader.isAtEnd else {
            throw VerificationError(.malformedContainer, "expected one SignerInfo, found several")
        }
        guard !certificates.isEmpty else {
            throw VerificationError(.missingCertificates, "the receipt carries no certificates")
        }
        certificateEncodings = certificates

        guard signerInfo.identifier == Tag.sequence else {
            throw VerificationError(.malformedContainer, "SignerInfo: expected a SEQUENCE")
        }
        var fields = try signerInfoReader.children(of: signerInfo, "SignerInfo")
        _ = try fields.read("SignerInfo.version")
        signerIdentifier = bytes[try fields.read("SignerInfo.issuerAndSerialNumber").encoding]
        digestAlgorithm = try Self.digestAlgorithm(&fields)
        if let next = fields.nextIdentifier, Tag.isContext(next, 0) {
            throw VerificationError(.malformedContainer, "signed attributes are not used in App Store receipts")
        }
        let signatureAlgorithm = try Self.algorithm(&fields, what: "SignerInfo.signatureAlgorithm")
        guard OID.rsaSignatureAlgorithms.contains(where: { fields.matches(signatureAlgorithm, oid: $0) }) else {
            try Self.requireObjectIdentifier(signatureAlgorithm, in: fields, what: "signatureAlgorithm")
            throw VerificationError(.unsupportedAlgorithm, "the signer's algorithm is not RSA PKCS#1 v1.5")
        }
        signature = try fields.octetString(try fields.read("SignerInfo.signature"), "SignerInfo.signature")
        try Self.skipRemaining(&fields, what: "SignerInfo")
    }

    /// Reads an explicit `[0]` holding exactly one value and returns that value.
    private static func explicit(
        _ reader: inout BERReader, what: String
    ) throws(VerificationError) -> BERReader.Element {
        let tagged = try reader.read(what)
        guard tagged.identifier == Tag.contextConstructed0 else {
            throw VerificationError(.malformedContainer, "\(what) is not an explicit [0]")
        }
        var inner = try reader.children(of: tagged, what)
        guard !inner.isAtEnd else {
            throw VerificationError(.malformedContainer, "\(what) must hold exactly one value")
        }
        let value = try inner.read(what)
        guard inner.isAtEnd else {
            throw VerificationError(.malformedContainer, "\(what) must hold exactly one value")
        }
        return value
    }

    /// Reads (and so checks the framing of) the fields after the ones used.
    private static func skipRemaining(_ reader: inout BERReader, what: String) throws(VerificationError) {
        while !reader.isAtEnd { _ = try reader.read(what) }
    }

    /// Reads an `AlgorithmIdentifier` and returns its algorithm, an object identifier.
    private static func algorithm(
        _ reader: inout BERReader, what: String
    ) throws(VerificationError) -> BERReader.Element {
        let sequence = try reader.read(Tag.sequence, what)
        var fields = try reader.children(of: sequence, what)
        return try fields.read(what)
    }

    private static func digestAlgorithm(_ reader: inout BERReader) throws(VerificationError) -> DigestAlgorithm {
        let algorithm = try algorithm(&reader, what: "SignerInfo.digestAlgorithm")
        if reader.matches(algorithm, oid: OID.sha256) { return .sha256 }
        if reader.matches(algorithm, oid: OID.sha1) { return .sha1 }
        try requireObjectIdentifier(algorithm, in: reader, what: "digestAlgorithm")
        let name = (try? ASN1ObjectIdentifier(berEncoded: reader.bytes[algorithm.encoding])).map { "\($0)" } ?? "?"
        throw VerificationError(.unsupportedAlgorithm, "digest algorithm \(name) is not SHA-1 or SHA-256")
    }

    /// Requires `element` to be a well-formed object identifier (an unknown one is then
    /// an unsupported algorithm, a malformed one a malformed container).
    private static func requireObjectIdentifier(
        _ element: BERReader.Element, in reader: BERReader, what: String
    ) throws(VerificationError) {
        guard element.identifier == Tag.objectIdentifier,
            (try? ASN1ObjectIdentifier(berEncoded: reader.bytes[element.encoding])) != nil
        else {
            throw VerificationError(.malformedContainer, "\(what) is not an object identifier")
        }
    }

    /// Parses the carried certificates and picks the signer's among them.
    func parseCertificates() throws(VerificationError) -> (signer: Certificate, others: [Certificate]) {
        let certificates = try certificateEncodings.map { bytes throws(VerificationError) in
            do {
                return try Certificate(derEncoded: Array(bytes))
            } catch {
                throw VerificationError(.malformedContainer, "a carried certificate does not parse: \(error)")
            }
        }
        let signer = try Self.signer(identifiedBy: signerIdentifier, among: certificates)
        return (signer, certificates.filter { $0 != signer })
    }

    private static func signer(
        identifiedBy encoded: ArraySlice<UInt8>,
        among certificates: [Certificate]
    ) throws(VerificationError) -> Certificate {
        let node: ASN1Node
        do {
            node = try BER.parse(encoded)
        } catch {
            throw VerificationError(.malformedContainer, "SignerInfo.issuerAndSerialNumber does not parse")
        }
        let issuerAndSerial = try node.children(.sequence, atLeast: 2, what: "SignerInfo.issuerAndSerialNumber")
        let issuer: DistinguishedName
        let serial: ArraySlice<UInt8>
        do {
            issuer = try DistinguishedName(derEncoded: issuerAndSerial[0])
            serial = try ArraySlice<UInt8>(berEncoded: issuerAndSerial[1])
        } catch {
            throw VerificationError(.malformedContainer, "SignerInfo.issuerAndSerialNumber does not parse")
        }
        let serialNumber = Certificate.SerialNumber(bytes: serial)
        guard let signer = certificates.first(where: { $0.issuer == issuer && $0.serialNumber == serialNumber }) else {
            throw VerificationError(.missingCertificates, "the signer's certificate is not in the receipt")
        }
        return signer
    }
}
