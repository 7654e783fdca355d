import AppStoreModel
import Crypto
import Foundation
import X509

/// Verifies App Store signed data (JWS, ES256 with an `x5c` chain) and decodes it.
///
/// Checks, in order: the compact form; `alg` is ES256; `x5c` holds exactly three
/// certificates; leaf and intermediate were valid at the payload's `signedDate`; the
/// leaf chains through `x5c[1]` to one of ``roots`` (never to the `x5c[2]` the data
/// carries); Apple's marker extensions on leaf and intermediate; the ECDSA signature;
/// then the ``VerificationPolicy``; last, when configured, the ``RevocationCheck`` of the
/// leaf, so that data failing an offline check is refused before any responder is asked
/// and only genuine data can end as "retry later" (``VerificationError/isRetryable``).
///
/// Validated chains are cached by the protected header, which carries the certificate
/// bytes verbatim, so a stream of data from one signer costs one P-256 verification
/// per JWS. The verifier is a value: copies share the cache.
public struct JWSVerifier: Sendable {
    /// The roots chains must lead to.
    public let roots: TrustRoots
    /// What verified data must claim.
    public let policy: VerificationPolicy
    /// The online revocation check of the signing leaf; `nil` (the default) checks offline only.
    public let revocationCheck: RevocationCheck?

    private let chainValidator: CertificateChainValidator
    private let chainCache: VerifiedChainCache<String, SigningChain>

    /// A validated chain and its leaf's key.
    private struct SigningChain: Sendable {
        let chain: ValidatedChain
        let leafKey: P256.Signing.PublicKey
    }

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - roots: the trusted roots; Apple's by default.
    ///   - policy: what verified data must claim; nothing by default.
    ///   - chainCacheCapacity: how many distinct signing chains to remember.
    ///   - revocationCheck: the online revocation check of the signing leaf; none by default.
    public init(
        roots: TrustRoots = .apple,
        policy: VerificationPolicy = VerificationPolicy(),
        chainCacheCapacity: Int = 64,
        revocationCheck: RevocationCheck? = nil
    ) {
        self.roots = roots
        self.policy = policy
        self.revocationCheck = revocationCheck
        self.chainValidator = CertificateChainValidator(roots: roots)
        self.chainCache = VerifiedChainCache(capacity: chainCacheCapacity)
    }

    /// Verifies `jws` and decodes its payload as `Payload`.
    public func verify<Payload: VerifiablePayload>(
        _ jws: String,
        as payloadType: Payload.Type
    ) async throws(VerificationError) -> VerifiedJWS<Payload> {
        let compact = try CompactJWS(jws)
        let payload: Payload
        do {
            payload = try JSONDecoder().decode(Payload.self, from: compact.payload)
        } catch {
            throw VerificationError(.malformedPayload, "the JWS payload is not a valid \(Payload.self): \(error)")
        }
        let signingTime = payload.signingDate ?? Date()
        let signer = try await signingChain(for: compact, at: signingTime)

        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: compact.signature),
            signer.leafKey.isValidSignature(signature, for: compact.signingInput)
        else {
            throw VerificationError(.signatureInvalid, "the ES256 signature does not verify with the leaf's key")
        }
        try policy.check(payload.claims)
        if let revocationCheck {
            let certificates = signer.chain.certificates
            try await revocationCheck.check(certificates[0], issuedBy: certificates[1])
        }
        return VerifiedJWS(payload: payload, payloadJSON: compact.payload, certificateChain: signer.chain.certificates)
    }

    /// Verifies a signed transaction (`signedTransactionInfo`, StoreKit 2's `jwsRepresentation`).
    public func verifyTransaction(_ jws: String) async throws(VerificationError) -> JWSTransactionDecodedPayload {
        try await verify(jws, as: JWSTransactionDecodedPayload.self).payload
    }

    /// Verifies signed subscription renewal info (`signedRenewalInfo`).
    public func verifyRenewalInfo(_ jws: String) async throws(VerificationError) -> JWSRenewalInfoDecodedPayload {
        try await verify(jws, as: JWSRenewalInfoDecodedPayload.self).payload
    }

    /// Verifies a signed app transaction.
    public func verifyAppTransaction(_ jws: String) async throws(VerificationError) -> JWSAppTransactionDecodedPayload {
        try await verify(jws, as: JWSAppTransactionDecodedPayload.self).payload
    }

    /// Verifies an App Store Server Notification V2 `signedPayload` and the signed
    /// transaction and renewal info nested in it.
    public func verifyNotification(_ signedPayload: String) async throws(VerificationError) -> VerifiedNotification {
        let notification = try await verify(signedPayload, as: ResponseBodyV2DecodedPayload.self).payload
        let transaction = try await notification.data?.signedTransactionInfo.asyncMap(verifyTransaction)
        let renewalInfo = try await notification.data?.signedRenewalInfo.asyncMap(verifyRenewalInfo)
        if let transaction, let bundleId = notification.data?.bundleId, transaction.bundleId != bundleId {
            throw VerificationError(
                .bundleIdMismatch, "the nested transaction names another bundle than its notification")
        }
        return VerifiedNotification(notification: notification, transaction: transaction, renewalInfo: renewalInfo)
    }

    /// The number of signing chains currently cached.
    public var cachedChainCount: Int { chainCache.count }

    private func signingChain(for compact: CompactJWS, at signingTime: Date) async throws(VerificationError)
        -> SigningChain
    {
        if let cached = chainCache[compact.headerSegment] {
            guard cached.chain.validity.contains(signingTime) else {
                throw VerificationError(
                    .certificateNotValidAtSigningTime,
                    "the chain is valid from \(cached.chain.validity.lowerBound) to \(cached.chain.validity.upperBound), "
                        + "not at the signing time \(signingTime)"
                )
            }
            return cached
        }
        let header = try compact.decodeHeader()
        guard header.alg == "ES256" else {
            throw VerificationError(.unsupportedAlgorithm, "alg \(header.alg ?? "(none)") is not ES256")
        }
        guard let x5c = header.x5c, x5c.count == 3 else {
            throw VerificationError(
                .missingCertificates,
                "x5c must hold leaf, intermediate and root; it holds \(header.x5c?.count ?? 0)"
            )
        }
        let leaf = try Self.certificate(x5c[0])
        let intermediate = try Self.certificate(x5c[1])
        guard let leafKey = P256.Signing.PublicKey(leaf.publicKey) else {
            throw VerificationError(.unsupportedAlgorithm, "the leaf's key is not a P-256 key")
        }
        let chain = try await chainValidator.validate(leaf: leaf, intermediates: [intermediate], at: signingTime)
        let signer = SigningChain(chain: chain, leafKey: leafKey)
        chainCache.insert(signer, for: compact.headerSegment)
        return signer
    }

    private static func certificate(_ base64: String) throws(VerificationError) -> Certificate {
        guard let der = Data(base64Encoded: base64) else {
            throw VerificationError(.malformedEncoding, "an x5c entry is not base64")
        }
        do {
            return try Certificate(derEncoded: Array(der))
        } catch {
            throw VerificationError(.malformedContainer, "an x5c entry is not a DER certificate")
        }
    }
}

/// Data that passed ``JWSVerifier``'s checks.
public struct VerifiedJWS<Payload: VerifiablePayload>: Sendable {
    /// The decoded payload.
    public let payload: Payload
    /// The payload's JSON exactly as signed.
    public let payloadJSON: Data
    /// The chain that signed it: leaf, intermediate, root.
    public let certificateChain: [Certificate]
}

/// A notification whose signature and nested signed data all verified.
public struct VerifiedNotification: Sendable {
    /// The notification itself.
    public let notification: ResponseBodyV2DecodedPayload
    /// The verified `data.signedTransactionInfo`, when present.
    public let transaction: JWSTransactionDecodedPayload?
    /// The verified `data.signedRenewalInfo`, when present.
    public let renewalInfo: JWSRenewalInfoDecodedPayload?
}

extension Optional {
    fileprivate func asyncMap<T, E: Error>(_ transform: (Wrapped) async throws(E) -> T) async throws(E) -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
