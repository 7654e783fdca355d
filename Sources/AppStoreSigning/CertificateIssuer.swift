import Crypto
import Foundation
import SwiftASN1
import X509

/// Issues the certificates of a signing chain from their templates.
enum CertificateIssuer {
    /// A certificate's place in the chain, which fixes its standard extensions.
    enum Role {
        case root
        case intermediate
        case leaf
    }

    /// The issuing side of a certificate: its subject name, key and key identifier.
    struct Issuer {
        var name: DistinguishedName
        var key: ChainPrivateKey
        var keyIdentifier: [UInt8]
    }

    /// Issues one certificate.
    ///
    /// - Parameters:
    ///   - template: The subject, validity and optional extensions.
    ///   - role: The certificate's place in the chain.
    ///   - subjectKey: The key the certificate certifies.
    ///   - issuer: The issuer, or `nil` for a self-signed certificate.
    /// - Returns: The certificate.
    static func issue(
        _ template: CertificateTemplate,
        role: Role,
        subjectKey: ChainPrivateKey,
        issuer: Issuer?
    ) throws -> Certificate {
        guard template.notValidBefore <= template.notValidAfter else {
            throw SigningError.invalidValidityWindow(commonName: template.commonName)
        }
        let subject = try template.distinguishedName()
        let publicKey = subjectKey.certificateKey.publicKey
        let subjectKeyIdentifier = keyIdentifier(of: publicKey)
        let signer = issuer ?? Issuer(name: subject, key: subjectKey, keyIdentifier: subjectKeyIdentifier)

        var extensions = Certificate.Extensions()
        switch role {
        case .root:
            try extensions.append(.init(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true))
            try extensions.append(.init(KeyUsage(keyCertSign: true, cRLSign: true), critical: true))
            try extensions.append(
                .init(SubjectKeyIdentifier(keyIdentifier: subjectKeyIdentifier[...]), critical: false))
        case .intermediate:
            try extensions.append(.init(BasicConstraints.isCertificateAuthority(maxPathLength: 0), critical: true))
            try extensions.append(.init(KeyUsage(keyCertSign: true, cRLSign: true), critical: true))
            try extensions.append(
                .init(SubjectKeyIdentifier(keyIdentifier: subjectKeyIdentifier[...]), critical: false))
            try extensions.append(
                .init(AuthorityKeyIdentifier(keyIdentifier: signer.keyIdentifier[...]), critical: false)
            )
        case .leaf:
            try extensions.append(.init(BasicConstraints.notCertificateAuthority, critical: true))
            try extensions.append(.init(KeyUsage(digitalSignature: true), critical: true))
            try extensions.append(
                .init(AuthorityKeyIdentifier(keyIdentifier: signer.keyIdentifier[...]), critical: false)
            )
        }
        if let marker = template.appleMarker {
            extensions.update(Certificate.Extension(oid: marker, critical: false, value: derNull))
        }
        for additional in template.additionalExtensions {
            extensions.update(additional)
        }

        return try Certificate(
            version: .v3,
            serialNumber: template.serialNumber ?? Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: template.notValidBefore,
            notValidAfter: template.notValidAfter,
            issuer: signer.name,
            subject: subject,
            signatureAlgorithm: signer.key.certificateSignatureAlgorithm,
            extensions: extensions,
            issuerPrivateKey: signer.key.certificateKey
        )
    }

    /// The RFC 5280 method-1 key identifier: SHA-1 of the subjectPublicKey bits.
    static func keyIdentifier(of publicKey: Certificate.PublicKey) -> [UInt8] {
        Array(Insecure.SHA1.hash(data: Array(publicKey.subjectPublicKeyInfoBytes)))
    }

    /// DER `NULL`, the value of Apple's marker extensions.
    private static let derNull: ArraySlice<UInt8> = [0x05, 0x00]
}
