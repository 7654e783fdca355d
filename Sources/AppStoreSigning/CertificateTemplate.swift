import Foundation
import SwiftASN1
import X509

/// What one certificate of a ``SigningChain`` should contain.
///
/// The standard extensions (basic constraints, key usage, key identifiers) follow from
/// the certificate's place in the chain; a template chooses the rest, including values
/// that make the chain invalid on purpose, such as an expired window or a missing
/// Apple marker extension.
public struct CertificateTemplate: Hashable, Sendable {
    /// The subject's common name (CN).
    public var commonName: String
    /// The subject's organizational unit (OU), if any.
    public var organizationalUnitName: String?
    /// The subject's organization (O), if any.
    public var organizationName: String?
    /// The subject's two-letter country code (C), if any.
    public var countryName: String?
    /// The start of the validity window; stored with one-second precision.
    public var notValidBefore: Date
    /// The end of the validity window; stored with one-second precision.
    public var notValidAfter: Date
    /// The Apple marker extension to add (non-critical, value DER `NULL`), or `nil` for
    /// none. See ``AppleMarkerOID``.
    public var appleMarker: ASN1ObjectIdentifier?
    /// Further extensions. One whose OID equals a built-in extension's (basic
    /// constraints, key usage, key identifiers, marker) replaces it.
    public var additionalExtensions: [Certificate.Extension]
    /// The serial number, or `nil` for a random 20-byte one.
    public var serialNumber: Certificate.SerialNumber?

    /// Creates a template.
    ///
    /// - Parameters:
    ///   - commonName: The subject's common name.
    ///   - organizationalUnitName: The subject's organizational unit, if any.
    ///   - organizationName: The subject's organization, if any.
    ///   - countryName: The subject's country code, if any.
    ///   - notValidBefore: The start of the validity window.
    ///   - notValidAfter: The end of the validity window.
    ///   - appleMarker: The Apple marker extension to add, if any.
    ///   - additionalExtensions: Further extensions, replacing built-in ones with the
    ///     same OID.
    ///   - serialNumber: The serial number, or `nil` for a random one.
    public init(
        commonName: String,
        organizationalUnitName: String? = nil,
        organizationName: String? = nil,
        countryName: String? = nil,
        notValidBefore: Date,
        notValidAfter: Date,
        appleMarker: ASN1ObjectIdentifier? = nil,
        additionalExtensions: [Certificate.Extension] = [],
        serialNumber: Certificate.SerialNumber? = nil
    ) {
        self.commonName = commonName
        self.organizationalUnitName = organizationalUnitName
        self.organizationName = organizationName
        self.countryName = countryName
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
        self.appleMarker = appleMarker
        self.additionalExtensions = additionalExtensions
        self.serialNumber = serialNumber
    }

    /// The subject distinguished name, in the order CN, OU, O, C as Apple writes it.
    func distinguishedName() throws -> DistinguishedName {
        try DistinguishedName {
            CommonName(commonName)
            if let organizationalUnitName {
                OrganizationalUnitName(organizationalUnitName)
            }
            if let organizationName {
                OrganizationName(organizationName)
            }
            if let countryName {
                CountryName(countryName)
            }
        }
    }
}
