import Crypto
import SwiftASN1
import X509

/// An OCSP `CertID` (RFC 6960 §4.1.1): the certificate a request or answer is about,
/// named by SHA-1 hashes of its issuer's name and key and by its serial number.
struct OCSPCertificateID: Hashable, Sendable {
    /// `id-sha1`, the hash algorithm of the `CertID`s this module sends.
    static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]

    /// SHA-1 of the DER encoding of the issuer's subject name.
    let issuerNameHash: [UInt8]
    /// SHA-1 of the issuer's public key (the contents of its `subjectPublicKey` BIT STRING).
    let issuerKeyHash: [UInt8]
    /// The certificate's serial number, big-endian, as its INTEGER content holds it.
    let serialNumber: [UInt8]

    /// The `CertID` of `certificate`, issued by `issuer`.
    init(certificate: Certificate, issuer: Certificate) throws(VerificationError) {
        do {
            var nameSerializer = DER.Serializer()
            try nameSerializer.serialize(issuer.subject)
            var keySerializer = DER.Serializer()
            try keySerializer.serialize(issuer.publicKey)
            let keyInfo = try DER.parse(keySerializer.serializedBytes)
            guard case .constructed(let keyFields) = keyInfo.content, let keyBits = Array(keyFields).last else {
                throw VerificationError(.malformedContainer, "the issuer's SubjectPublicKeyInfo is malformed")
            }
            let publicKey = try ASN1BitString(derEncoded: keyBits).bytes
            issuerNameHash = Array(Insecure.SHA1.hash(data: nameSerializer.serializedBytes))
            issuerKeyHash = Array(Insecure.SHA1.hash(data: Array(publicKey)))
            serialNumber = Array(certificate.serialNumber.bytes)
        } catch let error as VerificationError {
            throw error
        } catch {
            throw VerificationError(.malformedContainer, "cannot encode the issuer's name or key: \(error)")
        }
    }

    /// Reads a `CertID` node; `nil` when it uses another hash than SHA-1.
    init?(node: ASN1Node) throws(VerificationError) {
        let fields = try node.children(.sequence, atLeast: 4, what: "CertID")
        let algorithm = try fields[0].children(.sequence, atLeast: 1, what: "CertID.hashAlgorithm")
        guard try algorithm[0].objectIdentifier(what: "CertID.hashAlgorithm") == Self.sha1 else { return nil }
        do {
            issuerNameHash = Array(try ASN1OctetString(derEncoded: fields[1]).bytes)
            issuerKeyHash = Array(try ASN1OctetString(derEncoded: fields[2]).bytes)
            serialNumber = Array(try ArraySlice<UInt8>(derEncoded: fields[3]))
        } catch {
            throw VerificationError(.malformedContainer, "CertID has malformed hashes or serial number")
        }
    }

    /// Appends the DER `CertID` to `serializer`.
    func serialize(into serializer: inout DER.Serializer) throws {
        try serializer.appendConstructedNode(identifier: .sequence) { certID in
            try certID.appendConstructedNode(identifier: .sequence) { algorithm in
                try algorithm.serialize(Self.sha1)
                try algorithm.serialize(ASN1Null())
            }
            try certID.serialize(ASN1OctetString(contentBytes: issuerNameHash[...]))
            try certID.serialize(ASN1OctetString(contentBytes: issuerKeyHash[...]))
            try certID.serialize(serialNumber[...])
        }
    }

    /// The DER `OCSPRequest` (RFC 6960 §4.1.1) asking about this certificate alone,
    /// unsigned and without extensions.
    func requestDER() throws(VerificationError) -> [UInt8] {
        var serializer = DER.Serializer()
        do {
            try serializer.appendConstructedNode(identifier: .sequence) { request in  // OCSPRequest
                try request.appendConstructedNode(identifier: .sequence) { tbsRequest in
                    try tbsRequest.appendConstructedNode(identifier: .sequence) { requestList in
                        try requestList.appendConstructedNode(identifier: .sequence) { single in
                            try serialize(into: &single)
                        }
                    }
                }
            }
        } catch {
            throw VerificationError(.malformedContainer, "cannot encode the OCSP request: \(error)")
        }
        return serializer.serializedBytes
    }
}
