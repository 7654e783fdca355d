import SwiftASN1
import X509

extension SigningChain {
    /// The certificates as PEM `CERTIFICATE` blocks in the order leaf, intermediate,
    /// root, each ending in a newline.
    public var certificateChainPEM: String {
        [leafCertificateDER, intermediateCertificateDER, rootCertificateDER]
            .map { Self.pem(type: Self.certificateLabel, der: $0) }
            .joined()
    }

    /// The root certificate as one PEM `CERTIFICATE` block, e.g. for `openssl -CAfile`.
    public var rootCertificatePEM: String {
        Self.pem(type: Self.certificateLabel, der: rootCertificateDER)
    }

    /// The leaf's private key as a PEM `PRIVATE KEY` block (PKCS#8, unencrypted).
    public var privateKeyPEM: String {
        Self.pem(type: Self.privateKeyLabel, der: leafKey.pkcs8DER)
    }

    /// The whole chain and key: ``certificateChainPEM`` followed by ``privateKeyPEM``.
    ///
    /// It holds an unencrypted private key: store it where only its owner can read it.
    public var pemRepresentation: String {
        certificateChainPEM + privateKeyPEM
    }

    /// Reloads a chain written by ``pemRepresentation``.
    ///
    /// - Parameter pemRepresentation: Three `CERTIFICATE` blocks (leaf, intermediate,
    ///   root) and one PKCS#8 `PRIVATE KEY` block, in any order relative to each other.
    /// - Throws: ``SigningError/invalidPEM(_:)`` when blocks are missing, extra or
    ///   unreadable; ``SigningError/privateKeyDoesNotMatchLeaf`` when the key is not the
    ///   leaf's.
    public init(pemRepresentation: String) throws {
        let documents = try Self.parseDocuments(pemRepresentation, what: "signing chain")
        try self.init(documents: documents)
    }

    /// Reloads a chain stored as two PEM texts, ``certificateChainPEM`` and
    /// ``privateKeyPEM``.
    ///
    /// - Parameters:
    ///   - certificateChainPEM: Three `CERTIFICATE` blocks: leaf, intermediate, root.
    ///   - privateKeyPEM: One PKCS#8 `PRIVATE KEY` block.
    /// - Throws: ``SigningError/invalidPEM(_:)`` or
    ///   ``SigningError/privateKeyDoesNotMatchLeaf``.
    public init(certificateChainPEM: String, privateKeyPEM: String) throws {
        let certificates = try Self.parseDocuments(certificateChainPEM, what: "certificate chain")
        let keys = try Self.parseDocuments(privateKeyPEM, what: "private key")
        try self.init(documents: certificates + keys)
    }

    private init(documents: [PEMDocument]) throws {
        if let other = documents.first(where: {
            $0.discriminator != Self.certificateLabel && $0.discriminator != Self.privateKeyLabel
        }) {
            throw SigningError.invalidPEM(
                "unexpected block \"\(other.discriminator)\"; expected CERTIFICATE or PRIVATE KEY"
            )
        }
        let certificateBlocks = documents.filter { $0.discriminator == Self.certificateLabel }
        let keyBlocks = documents.filter { $0.discriminator == Self.privateKeyLabel }
        guard certificateBlocks.count == 3 else {
            throw SigningError.invalidPEM("expected 3 certificates, found \(certificateBlocks.count)")
        }
        guard keyBlocks.count == 1 else {
            throw SigningError.invalidPEM("expected 1 private key, found \(keyBlocks.count)")
        }

        let certificates: [Certificate]
        do {
            certificates = try certificateBlocks.map { try Certificate(derEncoded: $0.derBytes) }
        } catch {
            throw SigningError.invalidPEM("unreadable certificate: \(error)")
        }
        let leaf = certificates[0]
        guard let algorithm = SigningKeyAlgorithm(publicKey: leaf.publicKey) else {
            throw SigningError.unsupportedLeafKey(String(describing: leaf.publicKey))
        }
        let key: ChainPrivateKey
        do {
            key = try ChainPrivateKey(pkcs8DER: keyBlocks[0].derBytes, algorithm: algorithm)
        } catch {
            throw SigningError.invalidPEM("unreadable \(algorithm) private key: \(error)")
        }
        try self.init(root: certificates[2], intermediate: certificates[1], leaf: leaf, leafKey: key)
    }

    private static let certificateLabel = "CERTIFICATE"
    private static let privateKeyLabel = "PRIVATE KEY"

    private static func pem(type: String, der: [UInt8]) -> String {
        PEMDocument(type: type, derBytes: der).pemString + "\n"
    }

    private static func parseDocuments(_ text: String, what: String) throws -> [PEMDocument] {
        do {
            return try PEMDocument.parseMultiple(pemString: text)
        } catch {
            throw SigningError.invalidPEM("unreadable \(what): \(error)")
        }
    }
}
