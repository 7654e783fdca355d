import SwiftASN1

/// The object identifiers of the extensions Apple puts on its signing certificates.
///
/// Verifiers check for them to tell Apple's App Store chain from any other chain that
/// ends at the same root. Apple encodes each as a non-critical extension whose value is
/// DER `NULL`.
public enum AppleMarkerOID {
    /// 1.2.840.113635.100.6.2.1, on the "Apple Worldwide Developer Relations"
    /// intermediate certificate.
    public static let intermediate: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// 1.2.840.113635.100.6.11.1, on the App Store (receipt and JWS) signing leaf
    /// certificate.
    public static let leaf: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
}
