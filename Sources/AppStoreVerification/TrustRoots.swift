import Foundation
import SwiftASN1
import X509

/// The root certificates that signed App Store data must chain to.
///
/// ``apple`` holds Apple Root CA (receipts) and Apple Root CA - G3 (JWS), bundled with
/// this package. Other roots (Xcode's StoreKit testing root, an emulator's root) are
/// trusted only when a caller builds a ``TrustRoots`` with them explicitly.
public struct TrustRoots: Sendable {
    /// The trusted root certificates.
    public let certificates: [Certificate]

    /// Trusts exactly the given certificates.
    public init(_ certificates: [Certificate]) {
        self.certificates = certificates
    }

    /// Trusts the given DER-encoded certificates.
    ///
    /// - Throws: ``VerificationError`` with code `malformed_container` when a certificate
    ///   does not parse.
    public init(derEncoded certificates: [[UInt8]]) throws {
        self.certificates = try certificates.map { der in
            do {
                return try Certificate(derEncoded: der)
            } catch {
                throw VerificationError(.malformedContainer, "trust root is not a DER certificate: \(error)")
            }
        }
    }

    /// Apple Root CA and Apple Root CA - G3, from the package's resources.
    public static let apple: TrustRoots = {
        let names = ["AppleIncRootCertificate", "AppleRootCA-G3"]
        let certificates = names.map { name -> Certificate in
            guard let url = Bundle.module.url(forResource: name, withExtension: "cer", subdirectory: "Resources"),
                let der = try? Data(contentsOf: url),
                let certificate = try? Certificate(derEncoded: Array(der))
            else {
                fatalError("AppStoreVerification resource \(name).cer is missing or corrupt: the package is broken")
            }
            return certificate
        }
        return TrustRoots(certificates)
    }()

    /// Whether `certificate` is one of the trusted roots, compared by its encoding.
    func contains(_ certificate: Certificate) -> Bool {
        certificates.contains(certificate)
    }
}
