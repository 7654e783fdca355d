import AppStoreModel
import Crypto
import Foundation
import _CryptoExtras

/// Signs app receipts as PKCS#7 / CMS SignedData the way the App Store does: the
/// payload is the encapsulated content, signed directly (no signed attributes) with RSA
/// PKCS#1 v1.5 by the chain's leaf key.
public struct ReceiptSigner: Sendable {
    /// The chain whose leaf key signs and whose certificates the container carries.
    public let chain: SigningChain
    /// How the container is built.
    public var options: ReceiptSigningOptions
    private let key: _RSA.Signing.PrivateKey

    /// Creates a signer for an RSA chain.
    ///
    /// - Parameters:
    ///   - chain: The signing chain.
    ///   - options: How to build the container.
    /// - Throws: ``SigningError/wrongKeyAlgorithm(expected:actual:)`` for an ES256 chain.
    public init(chain: SigningChain, options: ReceiptSigningOptions = ReceiptSigningOptions()) throws {
        guard case .rsa(let key) = chain.leafKey else {
            throw SigningError.wrongKeyAlgorithm(expected: .rsa2048, actual: chain.algorithm)
        }
        self.chain = chain
        self.options = options
        self.key = key
    }

    /// Encodes a receipt with ``ReceiptPayloadEncoder`` and signs it.
    ///
    /// - Parameter receipt: The receipt.
    /// - Returns: The encoded PKCS#7 container (base64-encode it for `receipt-data`).
    /// - Throws: A ``SigningError`` or an encoding or signing error.
    public func sign(_ receipt: AppReceipt) throws -> [UInt8] {
        try sign(payload: ReceiptPayloadEncoder.encode(receipt))
    }

    /// Signs arbitrary content, e.g. a payload that is not a valid receipt.
    ///
    /// - Parameter payload: The content to encapsulate and sign.
    /// - Returns: The encoded PKCS#7 container.
    /// - Throws: A ``SigningError`` or an encoding or signing error.
    public func sign(payload: some DataProtocol) throws -> [UInt8] {
        let content = Array(payload)
        return try sign(payload: content, signature: signature(over: content))
    }

    /// Builds a container with a given signature instead of one over the content, e.g.
    /// a signature over other content (``signature(over:)``) or garbage bytes.
    ///
    /// - Parameters:
    ///   - payload: The content to encapsulate.
    ///   - signature: The bytes to put in the SignerInfo's signature field.
    /// - Returns: The encoded PKCS#7 container.
    /// - Throws: A ``SigningError`` or an encoding error.
    public func sign(payload: some DataProtocol, signature: [UInt8]) throws -> [UInt8] {
        let parts = SignedDataEncoder.Parts(
            content: Array(payload),
            signature: signature,
            digest: options.digest,
            certificates: includedCertificates,
            signer: chain.leaf
        )
        return try SignedDataEncoder.encode(parts, encoding: options.encoding)
    }

    /// The RSA PKCS#1 v1.5 signature over content, with the options' digest.
    ///
    /// - Parameter content: The signed bytes.
    /// - Returns: The 256-byte signature.
    /// - Throws: An error from the RSA signing operation.
    public func signature(over content: some DataProtocol) throws -> [UInt8] {
        let signature: _RSA.Signing.RSASignature
        switch options.digest {
        case .sha256:
            signature = try key.signature(for: SHA256.hash(data: Data(content)), padding: .insecurePKCS1v1_5)
        case .sha1:
            signature = try key.signature(for: Insecure.SHA1.hash(data: Data(content)), padding: .insecurePKCS1v1_5)
        }
        return Array(signature.rawRepresentation)
    }

    private var includedCertificates: [[UInt8]] {
        switch options.certificates {
        case .fullChain:
            return [chain.leafCertificateDER, chain.intermediateCertificateDER, chain.rootCertificateDER]
        case .leafAndIntermediate:
            return [chain.leafCertificateDER, chain.intermediateCertificateDER]
        case .omitted:
            return []
        case .custom(let certificates):
            return certificates
        }
    }
}
