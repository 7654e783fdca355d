import AppStoreModel
import Crypto
import Foundation
import X509
import _CryptoExtras

/// Verifies an app receipt (PKCS#7 SignedData, BER or DER) and decodes it.
///
/// Checks, in order: the encoding (base64 text or raw bytes); the container; the RSA
/// PKCS#1 v1.5 signature (SHA-1 or SHA-256) with the signer's key; the receipt
/// attributes; the chain from the signer through a carried intermediate to one of
/// ``roots`` at the receipt's creation date, with Apple's marker extensions; then the
/// ``VerificationPolicy``. A signer that is itself a configured root (Xcode's StoreKit
/// testing signs that way) needs no intermediate.
///
/// Validated chains are cached by the carried certificates' bytes.
public struct ReceiptVerifier: Sendable {
    /// The roots chains must lead to.
    public let roots: TrustRoots
    /// What a verified receipt must claim.
    public let policy: VerificationPolicy

    /// The largest receipt accepted, in bytes of base64 text or DER. A receipt with
    /// thousands of purchases stays far below it.
    public static let maximumSize = 8 * 1024 * 1024

    private let chainValidator: CertificateChainValidator
    private let chainCache: VerifiedChainCache<Data, SigningChain>

    private struct SigningChain: Sendable {
        let chain: ValidatedChain
        let signerKey: _RSA.Signing.PublicKey
    }

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - roots: the trusted roots; Apple's by default.
    ///   - policy: what a verified receipt must claim; nothing by default.
    ///   - chainCacheCapacity: how many distinct signing chains to remember.
    public init(
        roots: TrustRoots = .apple, policy: VerificationPolicy = VerificationPolicy(), chainCacheCapacity: Int = 16
    ) {
        self.roots = roots
        self.policy = policy
        self.chainValidator = CertificateChainValidator(roots: roots)
        self.chainCache = VerifiedChainCache(capacity: chainCacheCapacity)
    }

    /// Verifies a receipt given as base64 text (whitespace ignored), as Apple's
    /// verifyReceipt and StoreKit's `appStoreReceiptURL` consumers pass it around.
    public func verify(base64Encoded text: String) async throws(VerificationError) -> VerifiedReceipt {
        guard text.utf8.count <= Self.maximumSize else {
            throw VerificationError(.inputTooLarge, "a receipt of \(text.utf8.count) bytes exceeds \(Self.maximumSize)")
        }
        guard let der = Base64.decode(text.utf8, alphabet: .standard), !der.isEmpty else {
            throw VerificationError(.malformedEncoding, "the receipt is not valid base64")
        }
        return try await verify(der: der)
    }

    /// Verifies a receipt given as raw bytes: DER/BER, or base64 text.
    ///
    /// Bytes that decode as base64 are base64 (DER starts with 0x30 and a length byte,
    /// which base64 text never holds); anything else starting with 0x30 is DER or BER.
    public func verify(_ bytes: [UInt8]) async throws(VerificationError) -> VerifiedReceipt {
        guard bytes.count <= Self.maximumSize else {
            throw VerificationError(.inputTooLarge, "a receipt of \(bytes.count) bytes exceeds \(Self.maximumSize)")
        }
        if let der = Base64.decode(bytes, alphabet: .standard), !der.isEmpty {
            return try await verify(der: der)
        }
        guard bytes.first == 0x30 else {
            throw VerificationError(.malformedEncoding, "the receipt is neither base64 text nor DER")
        }
        return try await verify(der: bytes)
    }

    private func verify(der: [UInt8]) async throws(VerificationError) -> VerifiedReceipt {
        if der.first == UInt8(ascii: "{") {
            throw VerificationError(
                .unsupportedReceiptFormat,
                "an iOS 6 style receipt; only Apple's verifyReceipt can check it"
            )
        }
        let container = try PKCS7SignedData(berEncoded: der)
        let receipt = try ReceiptPayloadDecoder.decode(container.content)
        let signer = try await signingChain(for: container, at: receipt.creationDate)
        guard Self.isValidSignature(container, key: signer.signerKey) else {
            throw VerificationError(.signatureInvalid, "the RSA signature does not verify with the signer's key")
        }
        try policy.check(PayloadClaims(bundleId: receipt.bundleId, environment: receipt.environment))
        return VerifiedReceipt(
            receipt: receipt,
            digestAlgorithm: container.digestAlgorithm.rawValue,
            certificateChain: signer.chain.certificates
        )
    }

    /// The number of signing chains currently cached.
    public var cachedChainCount: Int { chainCache.count }

    private func signingChain(for container: PKCS7SignedData, at creationDate: Date) async throws(VerificationError)
        -> SigningChain
    {
        // The carried certificates are only sliced, not parsed, unless this chain is new.
        var key = Data(
            capacity: container.certificateEncodings.reduce(container.signerIdentifier.count) { $0 + $1.count })
        key.append(contentsOf: container.signerIdentifier)
        for encoding in container.certificateEncodings { key.append(contentsOf: encoding) }
        if let cached = chainCache[key] {
            guard cached.chain.validity.contains(creationDate) else {
                throw VerificationError(
                    .certificateNotValidAtSigningTime,
                    "the chain is valid from \(cached.chain.validity.lowerBound) to \(cached.chain.validity.upperBound), "
                        + "not at the receipt's creation date \(creationDate)"
                )
            }
            return cached
        }
        let (signer, others) = try container.parseCertificates()
        guard let signerKey = _RSA.Signing.PublicKey(signer.publicKey) else {
            throw VerificationError(.unsupportedAlgorithm, "the signer's key is not an RSA key")
        }
        let chain = try await chainValidator.validate(
            leaf: signer,
            intermediates: others,
            at: creationDate,
            acceptsRootAsSigner: true
        )
        let signingChain = SigningChain(chain: chain, signerKey: signerKey)
        chainCache.insert(signingChain, for: key)
        return signingChain
    }

    private static func isValidSignature(_ container: PKCS7SignedData, key: _RSA.Signing.PublicKey) -> Bool {
        let signature = _RSA.Signing.RSASignature(rawRepresentation: container.signature)
        switch container.digestAlgorithm {
        case .sha1:
            return key.isValidSignature(
                signature,
                for: Insecure.SHA1.hash(data: container.content),
                padding: .insecurePKCS1v1_5
            )
        case .sha256:
            return key.isValidSignature(
                signature, for: SHA256.hash(data: container.content), padding: .insecurePKCS1v1_5)
        }
    }
}

/// A receipt that passed ``ReceiptVerifier``'s checks.
public struct VerifiedReceipt: Sendable {
    /// The decoded receipt.
    public let receipt: AppReceipt
    /// The digest the signature used: `SHA-1` or `SHA-256`.
    public let digestAlgorithm: String
    /// The chain that signed it, signer first, root last.
    public let certificateChain: [Certificate]
}

extension AppReceipt {
    /// The receipt's environment, read from its receipt type: `Production`,
    /// `ProductionSandbox` (Sandbox), `Xcode`; `nil` when the receipt does not say.
    public var environment: AppStoreEnvironment? {
        switch receiptType {
        case nil: return nil
        case "Production": return .production
        case let type? where type.hasSuffix("Sandbox"): return .sandbox
        case let type?: return AppStoreEnvironment(rawValue: type)
        }
    }
}
