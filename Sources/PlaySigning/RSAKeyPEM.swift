import Foundation
import _CryptoExtras

/// RSA private keys in PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), the form a Google
/// service-account key file carries.
public enum RSAKeyPEM {
    /// `key` as PKCS#8 PEM.
    public static func pkcs8PEM(of key: _RSA.Signing.PrivateKey) -> String {
        key.pkcs8PEMRepresentation
    }

    /// The key in `pem`, which must be PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`).
    ///
    /// - Throws: The PEM or RSA parsing error (a key under 2048 bits is refused).
    public static func privateKey(pem: String) throws -> _RSA.Signing.PrivateKey {
        try _RSA.Signing.PrivateKey(pemRepresentation: pem)
    }

    /// A new RSA-2048 key. Slow in a debug build (seconds): generate keys when first
    /// needed, never on a start-up path.
    ///
    /// - Throws: The key generation error.
    public static func generate() throws -> _RSA.Signing.PrivateKey {
        try _RSA.Signing.PrivateKey(keySize: .bits2048)
    }
}
