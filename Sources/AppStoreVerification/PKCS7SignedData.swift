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

    private static let signedDataType: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]
    private static let dataType: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
    private static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]
    private static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    private static let rsaSignatureAlgorithms: Set<ASN1ObjectIdentifier> = [
        [1, 2, 840, 113549, 1, 1, 1],  // rsaEncryption, as Apple writes it
        [1, 2, 840, 113549, 1, 1, 5],  // sha1WithRSAEncryption
        [1, 2, 840, 113549, 1, 1, 11],  // sha256WithRSAEncryption
    ]

    /// Parses `bytes` as a ContentInfo holding SignedData with one signer.
    init(berEncoded bytes: [UInt8]) throws(VerificationError) {
        let root: ASN1Node
        do {
            root = try BER.parse(bytes)
        } catch {
            throw VerificationError(.malformedContainer, "not a BER/DER structure: \(error)")
        }
        let contentInfo = try root.children(.sequence, atLeast: 2, what: "ContentInfo")
        guard try contentInfo[0].objectIdentifier(what: "ContentInfo.contentType") == Self.signedDataType else {
            throw VerificationError(.malformedContainer, "ContentInfo does not hold PKCS#7 SignedData")
        }
        let signedData = try Self.explicit(contentInfo[1], what: "ContentInfo.content")
            .children(.sequence, atLeast: 4, what: "SignedData")

        let encapsulated = try signedData[2].children(.sequence, atLeast: 2, what: "SignedData.contentInfo")
        guard try encapsulated[0].objectIdentifier(what: "contentInfo.contentType") == Self.dataType else {
            throw VerificationError(.malformedContainer, "the signed content is not PKCS#7 data")
        }
        do {
            content = try ASN1OctetString(berEncoded: Self.explicit(encapsulated[1], what: "contentInfo.content")).bytes
        } catch let error as VerificationError {
            throw error
        } catch {
            throw VerificationError(.malformedContainer, "the signed content is not an OCTET STRING")
        }

        var index = 3
        var certificateNodes: [ASN1Node] = []
        if signedData[index].isContextSpecific(0) {
            guard case .constructed(let nodes) = signedData[index].content else {
                throw VerificationError(.malformedContainer, "SignedData.certificates is not constructed")
            }
            certificateNodes = Array(nodes)
            index += 1
        }
        if index < signedData.count, signedData[index].isContextSpecific(1) { index += 1 }  // CRLs, unused
        guard index == signedData.count - 1 else {
            throw VerificationError(.malformedContainer, "SignedData has unexpected fields")
        }
        let signerInfos = try signedData[index].children(.set, what: "SignedData.signerInfos")
        guard signerInfos.count == 1 else {
            throw VerificationError(.malformedContainer, "expected one SignerInfo, found \(signerInfos.count)")
        }
        guard !certificateNodes.isEmpty else {
            throw VerificationError(.missingCertificates, "the receipt carries no certificates")
        }
        certificateEncodings = certificateNodes.map(\.encodedBytes)

        let signerInfo = try signerInfos[0].children(.sequence, atLeast: 5, what: "SignerInfo")
        signerIdentifier = signerInfo[1].encodedBytes
        digestAlgorithm = try Self.digestAlgorithm(signerInfo[2])
        guard !signerInfo[3].isContextSpecific(0) else {
            throw VerificationError(.malformedContainer, "signed attributes are not used in App Store receipts")
        }
        let signatureAlgorithm = try signerInfo[3].children(
            .sequence, atLeast: 1, what: "SignerInfo.signatureAlgorithm")
        guard
            Self.rsaSignatureAlgorithms.contains(try signatureAlgorithm[0].objectIdentifier(what: "signatureAlgorithm"))
        else {
            throw VerificationError(.unsupportedAlgorithm, "the signer's algorithm is not RSA PKCS#1 v1.5")
        }
        do {
            signature = try ASN1OctetString(berEncoded: signerInfo[4]).bytes
        } catch {
            throw VerificationError(.malformedContainer, "SignerInfo.signature is not an OCTET STRING")
        }
    }

    private static func explicit(_ node: ASN1Node, what: String) throws(VerificationError) -> ASN1Node {
        guard node.isContextSpecific(0), case .constructed(let nodes) = node.content else {
            throw VerificationError(.malformedContainer, "\(what) is not an explicit [0]")
        }
        var iterator = nodes.makeIterator()
        guard let inner = iterator.next(), iterator.next() == nil else {
            throw VerificationError(.malformedContainer, "\(what) must hold exactly one value")
        }
        return inner
    }

    private static func digestAlgorithm(_ node: ASN1Node) throws(VerificationError) -> DigestAlgorithm {
        let algorithm = try node.children(.sequence, atLeast: 1, what: "SignerInfo.digestAlgorithm")
        switch try algorithm[0].objectIdentifier(what: "digestAlgorithm") {
        case sha1: return .sha1
        case sha256: return .sha256
        case let other:
            throw VerificationError(.unsupportedAlgorithm, "digest algorithm \(other) is not SHA-1 or SHA-256")
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
