import Foundation
import PlaySigning
import Synchronization
import _CryptoExtras

/// An RSA-2048 private key made on first use, not before: generating one takes seconds in a
/// debug build, and an emulator that made its keys at start slowed every server start of
/// the test suite past its deadline. Kept in a PEM file (when given one) so a restart signs
/// with the same key; a file already there is used as is.
///
/// Safe from any thread: the key is read, loaded and made only while `key`'s mutex is held,
/// so two first uses at once make one key.
final class LazyRSAKey: Sendable {
    private let file: URL?
    private let key = Mutex<_RSA.Signing.PrivateKey?>(nil)

    /// A key kept in `file` (PKCS#8 PEM); `nil` keeps it in memory only.
    init(file: URL?) {
        self.file = file
    }

    /// The key: the one in memory, else the file's, else a new one (written to the file).
    ///
    /// - Throws: The error of reading the file's PEM, generating the key or writing it.
    func get() throws -> _RSA.Signing.PrivateKey {
        try key.withLock { key in
            if let key { return key }
            let made: _RSA.Signing.PrivateKey
            if let file, let pem = try? String(contentsOf: file, encoding: .utf8) {
                made = try RSAKeyPEM.privateKey(pem: pem)
            } else {
                made = try RSAKeyPEM.generate()
                if let file {
                    try RSAKeyPEM.pkcs8PEM(of: made).write(to: file, atomically: true, encoding: .utf8)
                }
            }
            key = made
            return made
        }
    }
}
