import Crypto
import SwiftASN1
import X509
import _CryptoExtras

/// A three-certificate chain, root → intermediate → leaf, and the leaf's private key:
/// the identity that signs JWS (``SigningKeyAlgorithm/es256``) or app receipts
/// (``SigningKeyAlgorithm/rsa2048``) the way Apple's App Store does, under a CA of our
/// own.
///
/// Only the leaf key is kept: the chain can sign but not issue further certificates.
/// Persist it with ``pemRepresentation`` and reload it with ``init(pemRepresentation:)``.
public struct SigningChain: Equatable, Sendable {
    /// The key type of all three certificates and of the leaf key.
    public let algorithm: SigningKeyAlgorithm
    /// The self-signed root; configure verifiers to trust it.
    public let root: Certificate
    /// The intermediate CA, signed by the root.
    public let intermediate: Certificate
    /// The signing certificate, signed by the intermediate.
    public let leaf: Certificate
    /// The root certificate's DER encoding, for a verifier's trust configuration.
    public let rootCertificateDER: [UInt8]
    /// The intermediate certificate's DER encoding.
    public let intermediateCertificateDER: [UInt8]
    /// The leaf certificate's DER encoding.
    public let leafCertificateDER: [UInt8]
    /// The leaf's private key.
    let leafKey: ChainPrivateKey

    /// Generates fresh keys for all three certificates and issues the chain.
    ///
    /// - Parameters:
    ///   - algorithm: The key type and signature algorithm of the chain.
    ///   - options: The certificate templates; `nil` for
    ///     ``SigningChainOptions/standard(for:now:)``.
    /// - Returns: The chain with its leaf key.
    /// - Throws: ``SigningError/invalidValidityWindow(commonName:)`` for a window that
    ///   ends before it starts, or an error from key generation or certificate encoding.
    public static func generate(
        _ algorithm: SigningKeyAlgorithm,
        options: SigningChainOptions? = nil
    ) throws -> SigningChain {
        try issue(algorithm, options: options).chain
    }

    /// Generates and issues a chain as ``generate(_:options:)`` does, also returning the
    /// intermediate's key.
    static func issue(
        _ algorithm: SigningKeyAlgorithm,
        options: SigningChainOptions?
    ) throws -> (chain: SigningChain, intermediateKey: ChainPrivateKey) {
        let options = options ?? .standard(for: algorithm)
        let rootKey = try ChainPrivateKey(generating: algorithm)
        let intermediateKey = try ChainPrivateKey(generating: algorithm)
        let leafKey = try ChainPrivateKey(generating: algorithm)

        let root = try CertificateIssuer.issue(options.root, role: .root, subjectKey: rootKey, issuer: nil)
        let rootIssuer = CertificateIssuer.Issuer(
            name: root.subject,
            key: rootKey,
            keyIdentifier: CertificateIssuer.keyIdentifier(of: root.publicKey)
        )
        let intermediate = try CertificateIssuer.issue(
            options.intermediate,
            role: .intermediate,
            subjectKey: intermediateKey,
            issuer: rootIssuer
        )
        let intermediateIssuer = CertificateIssuer.Issuer(
            name: intermediate.subject,
            key: intermediateKey,
            keyIdentifier: CertificateIssuer.keyIdentifier(of: intermediate.publicKey)
        )
        let leaf = try CertificateIssuer.issue(
            options.leaf,
            role: .leaf,
            subjectKey: leafKey,
            issuer: intermediateIssuer
        )
        let chain = try SigningChain(root: root, intermediate: intermediate, leaf: leaf, leafKey: leafKey)
        return (chain, intermediateKey)
    }

    /// Creates an ES256 chain from existing certificates and the leaf's P-256 key.
    ///
    /// The certificates are not checked against each other, so mismatched chains can be
    /// built on purpose.
    ///
    /// - Parameters:
    ///   - root: The root certificate.
    ///   - intermediate: The intermediate certificate.
    ///   - leaf: The leaf certificate.
    ///   - leafPrivateKey: The leaf's private key.
    /// - Throws: ``SigningError/privateKeyDoesNotMatchLeaf`` when the key is not the
    ///   leaf's.
    public init(
        root: Certificate,
        intermediate: Certificate,
        leaf: Certificate,
        leafPrivateKey: P256.Signing.PrivateKey
    ) throws {
        try self.init(root: root, intermediate: intermediate, leaf: leaf, leafKey: .p256(leafPrivateKey))
    }

    /// Creates an RSA chain from existing certificates and the leaf's RSA key.
    ///
    /// The certificates are not checked against each other, so mismatched chains can be
    /// built on purpose.
    ///
    /// - Parameters:
    ///   - root: The root certificate.
    ///   - intermediate: The intermediate certificate.
    ///   - leaf: The leaf certificate.
    ///   - leafPrivateKey: The leaf's private key.
    /// - Throws: ``SigningError/privateKeyDoesNotMatchLeaf`` when the key is not the
    ///   leaf's.
    public init(
        root: Certificate,
        intermediate: Certificate,
        leaf: Certificate,
        leafPrivateKey: _RSA.Signing.PrivateKey
    ) throws {
        try self.init(root: root, intermediate: intermediate, leaf: leaf, leafKey: .rsa(leafPrivateKey))
    }

    init(root: Certificate, intermediate: Certificate, leaf: Certificate, leafKey: ChainPrivateKey) throws {
        guard leafKey.certificateKey.publicKey == leaf.publicKey else {
            throw SigningError.privateKeyDoesNotMatchLeaf
        }
        self.algorithm = leafKey.algorithm
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.leafKey = leafKey
        self.rootCertificateDER = try Self.der(root)
        self.intermediateCertificateDER = try Self.der(intermediate)
        self.leafCertificateDER = try Self.der(leaf)
    }

    /// The leaf's private key, as swift-certificates models it.
    public var leafPrivateKey: Certificate.PrivateKey { leafKey.certificateKey }

    /// The three certificates in the order Apple sends them: leaf, intermediate, root.
    public var certificates: [Certificate] { [leaf, intermediate, root] }

    /// Two chains are equal when their certificates and leaf keys are.
    public static func == (lhs: SigningChain, rhs: SigningChain) -> Bool {
        lhs.certificates == rhs.certificates && lhs.leafKey.pkcs8DER == rhs.leafKey.pkcs8DER
    }

    /// The DER encoding of a certificate.
    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
