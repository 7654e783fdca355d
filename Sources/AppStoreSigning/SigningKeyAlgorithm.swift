import Crypto
import X509
import _CryptoExtras

/// The key type and signature algorithm of a ``SigningChain``.
public enum SigningKeyAlgorithm: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// P-256 keys and ecdsaWithSHA256 certificate signatures, for JWS (ES256).
    case es256 = "ES256"
    /// RSA-2048 keys and sha256WithRSAEncryption certificate signatures, for PKCS#7 app
    /// receipts.
    case rsa2048 = "RSA-2048"

    /// The algorithm's name, e.g. `ES256`.
    public var description: String { rawValue }
}

extension SigningKeyAlgorithm {
    /// The algorithm of a certificate public key, or `nil` when this library does not
    /// sign with that key type.
    init?(publicKey: Certificate.PublicKey) {
        if P256.Signing.PublicKey(publicKey) != nil {
            self = .es256
        } else if let rsa = _RSA.Signing.PublicKey(publicKey), rsa.keySizeInBits >= 2048 {
            self = .rsa2048
        } else {
            return nil
        }
    }
}
