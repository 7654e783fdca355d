import CStoreKitCrypto
import Foundation

/// Verifies what the emulator signs as StoreKit verifies what Apple signs: an ES256 JWS
/// whose `x5c` chain (leaf, intermediate) verifies up to the trusted emulator root, with
/// Apple's marker extensions, and whose signature verifies with the leaf's key.
package enum JWSVerifier {
    /// Why a JWS did not verify; `nil` when it did.
    package enum Failure: Sendable, Hashable {
        case invalidEncoding
        case invalidCertificateChain
        case invalidSignature
    }

    /// Verifies `jws` against the root `configuration` trusts (see ``TrustedRoot``).
    package static func verify(_ jws: JWS, configuration: StoreKitConfiguration) -> Failure? {
        guard let root = try? TrustedRoot.der(for: configuration) else { return .invalidCertificateChain }
        return verify(jws, root: root)
    }

    /// Verifies `jws` against `root` (DER).
    package static func verify(_ jws: JWS, root: Data) -> Failure? {
        guard let header = jws.header, header.algorithm == "ES256" else { return .invalidEncoding }
        guard header.certificates.count == 3 else { return .invalidCertificateChain }
        let leaf = header.certificates[0]
        let intermediate = header.certificates[1]
        let result = leaf.withUnsafeBytes { leafBytes in
            intermediate.withUnsafeBytes { intermediateBytes in
                root.withUnsafeBytes { rootBytes in
                    jws.signingInput.withUnsafeBytes { inputBytes in
                        jws.signatureData.withUnsafeBytes { signatureBytes in
                            skc_verify_es256_chain(
                                leafBytes.bindMemory(to: UInt8.self).baseAddress, leafBytes.count,
                                intermediateBytes.bindMemory(to: UInt8.self).baseAddress, intermediateBytes.count,
                                rootBytes.bindMemory(to: UInt8.self).baseAddress, rootBytes.count,
                                inputBytes.bindMemory(to: UInt8.self).baseAddress, inputBytes.count,
                                signatureBytes.bindMemory(to: UInt8.self).baseAddress, signatureBytes.count)
                        }
                    }
                }
            }
        }
        switch result {
        case SKC_VERIFIED: return nil
        case SKC_INVALID_ENCODING: return .invalidEncoding
        case SKC_INVALID_CHAIN: return .invalidCertificateChain
        default: return .invalidSignature
        }
    }
}
