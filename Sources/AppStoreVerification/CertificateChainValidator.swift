import Foundation
@_spi(FixedExpiryValidationTime) import X509

/// A chain that was found to lead from a signer to a trusted root.
struct ValidatedChain: Sendable {
    /// Signer first, root last.
    let certificates: [Certificate]
    /// The span in which every certificate of the chain is valid.
    let validity: ClosedRange<Date>

    init(_ certificates: [Certificate]) {
        self.certificates = certificates
        let notBefore = certificates.map(\.notValidBefore).max() ?? .distantPast
        let notAfter = certificates.map(\.notValidAfter).min() ?? .distantFuture
        self.validity = notBefore...max(notBefore, notAfter)
    }
}

/// Checks that a signer certificate chains to a trusted root through one intermediate,
/// with Apple's marker extensions, at the time the data was signed.
struct CertificateChainValidator: Sendable {
    let roots: TrustRoots

    /// Validates `leaf` through `intermediates` to a root of ``roots`` at `signingTime`.
    ///
    /// - Parameter acceptsRootAsSigner: when true, a signer that is itself a trusted root
    ///   (Xcode's StoreKit testing signs receipts with its root directly) is accepted
    ///   without intermediate or markers. Only roots a caller configured can pass this way.
    func validate(
        leaf: Certificate,
        intermediates: [Certificate],
        at signingTime: Date,
        acceptsRootAsSigner: Bool = false
    ) async throws(VerificationError) -> ValidatedChain {
        if acceptsRootAsSigner, roots.contains(leaf) {
            try requireValid([leaf], at: signingTime)
            return ValidatedChain([leaf])
        }
        try requireValid([leaf] + intermediates, at: signingTime)

        var verifier = Verifier(rootCertificates: CertificateStore(roots.certificates)) {
            RFC5280Policy(fixedExpiryValidationTime: signingTime)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates))
        guard case .validCertificate(let validated) = result else {
            throw VerificationError(.chainUntrusted, "the certificate chain does not lead to a trusted root")
        }
        let chain = Array(validated)
        guard chain.count == 3, intermediates.contains(chain[1]) else {
            throw VerificationError(
                .chainUntrusted,
                "expected leaf, intermediate and root; the chain found has \(chain.count) certificates"
            )
        }
        guard chain[1].hasExtension(AppleCertificateMarkers.intermediate) else {
            throw VerificationError(
                .missingAppleExtension, "the intermediate lacks Apple's marker 1.2.840.113635.100.6.2.1")
        }
        guard leaf.hasExtension(AppleCertificateMarkers.leaf) else {
            throw VerificationError(.missingAppleExtension, "the leaf lacks Apple's marker 1.2.840.113635.100.6.11.1")
        }
        return ValidatedChain(chain)
    }

    private func requireValid(_ certificates: [Certificate], at date: Date) throws(VerificationError) {
        for certificate in certificates where !certificate.isValid(at: date) {
            throw VerificationError(
                .certificateNotValidAtSigningTime,
                "certificate \(certificate.subject) is valid from \(certificate.notValidBefore) to "
                    + "\(certificate.notValidAfter), not at the signing time \(date)"
            )
        }
    }
}
