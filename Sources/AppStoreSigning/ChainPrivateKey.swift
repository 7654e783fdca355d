import Crypto
import X509
import _CryptoExtras

/// A private key of a signing chain in the concrete form the issuer and signers use.
enum ChainPrivateKey: Sendable {
    case p256(P256.Signing.PrivateKey)
    case rsa(_RSA.Signing.PrivateKey)

    /// Creates a fresh key for `algorithm`.
    init(generating algorithm: SigningKeyAlgorithm) throws {
        switch algorithm {
        case .es256: self = .p256(P256.Signing.PrivateKey())
        case .rsa2048: self = .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        }
    }

    /// Reads a PKCS#8 DER key of the given algorithm.
    init(pkcs8DER: [UInt8], algorithm: SigningKeyAlgorithm) throws {
        switch algorithm {
        case .es256: self = .p256(try P256.Signing.PrivateKey(derRepresentation: pkcs8DER))
        case .rsa2048: self = .rsa(try _RSA.Signing.PrivateKey(derRepresentation: pkcs8DER))
        }
    }

    /// The key's algorithm.
    var algorithm: SigningKeyAlgorithm {
        switch self {
        case .p256: return .es256
        case .rsa: return .rsa2048
        }
    }

    /// The key as swift-certificates models it.
    var certificateKey: Certificate.PrivateKey {
        switch self {
        case .p256(let key): return Certificate.PrivateKey(key)
        case .rsa(let key): return Certificate.PrivateKey(key)
        }
    }

    /// The PKCS#8 `PrivateKeyInfo` DER encoding of the key.
    var pkcs8DER: [UInt8] {
        switch self {
        case .p256(let key): return Array(key.derRepresentation)
        case .rsa(let key): return Array(key.pkcs8DERRepresentation)
        }
    }

    /// The signature algorithm certificates issued by this key use.
    var certificateSignatureAlgorithm: Certificate.SignatureAlgorithm {
        switch self {
        case .p256: return .ecdsaWithSHA256
        case .rsa: return .sha256WithRSAEncryption
        }
    }
}
