import Foundation
import SwiftASN1
import X509

/// Apple's marker extensions, which say what a certificate of Apple's chain is for.
enum AppleCertificateMarkers {
    /// On the leaf that signs App Store receipts and signed transactions.
    static let leaf: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    /// On the Apple Worldwide Developer Relations intermediate.
    static let intermediate: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
}

extension Certificate {
    /// Whether the certificate carries the extension `oid`, critical or not.
    func hasExtension(_ oid: ASN1ObjectIdentifier) -> Bool {
        extensions.contains { $0.oid == oid }
    }

    /// Whether the certificate was valid at `date`.
    func isValid(at date: Date) -> Bool {
        notValidBefore <= date && date <= notValidAfter
    }
}
