import Foundation

/// The templates for the three certificates of a ``SigningChain``.
public struct SigningChainOptions: Hashable, Sendable {
    /// The self-signed root certificate.
    public var root: CertificateTemplate
    /// The intermediate CA certificate, signed by the root.
    public var intermediate: CertificateTemplate
    /// The leaf (signing) certificate, signed by the intermediate.
    public var leaf: CertificateTemplate

    /// Creates options from three templates.
    ///
    /// - Parameters:
    ///   - root: The root certificate's template.
    ///   - intermediate: The intermediate certificate's template.
    ///   - leaf: The leaf certificate's template.
    public init(root: CertificateTemplate, intermediate: CertificateTemplate, leaf: CertificateTemplate) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
    }

    /// StoreKeeper's own names, Apple's marker extensions on the intermediate and leaf,
    /// and validity windows that start a year before `now` and last 20 (root), 15
    /// (intermediate) and 10 (leaf) years.
    ///
    /// - Parameters:
    ///   - algorithm: The chain's algorithm; it only changes the leaf's common name.
    ///   - now: The reference time for the validity windows.
    /// - Returns: The options.
    public static func standard(for algorithm: SigningKeyAlgorithm, now: Date = Date()) -> SigningChainOptions {
        let start = wholeSeconds(now).addingTimeInterval(-365 * day)
        let leafName: String
        switch algorithm {
        case .es256: leafName = "StoreKeeper App Store Signing (ES256)"
        case .rsa2048: leafName = "StoreKeeper Receipt Signing (RSA)"
        }
        return SigningChainOptions(
            root: CertificateTemplate(
                commonName: "StoreKeeper Root CA",
                organizationalUnitName: "StoreKeeper Certification Authority",
                organizationName: "StoreKeeper",
                countryName: "US",
                notValidBefore: start,
                notValidAfter: start.addingTimeInterval(20 * year)
            ),
            intermediate: CertificateTemplate(
                commonName: "StoreKeeper Intermediate CA",
                organizationalUnitName: "StoreKeeper Developer Relations",
                organizationName: "StoreKeeper",
                countryName: "US",
                notValidBefore: start,
                notValidAfter: start.addingTimeInterval(15 * year),
                appleMarker: AppleMarkerOID.intermediate
            ),
            leaf: CertificateTemplate(
                commonName: leafName,
                organizationalUnitName: "StoreKeeper Developer Relations",
                organizationName: "StoreKeeper",
                countryName: "US",
                notValidBefore: start,
                notValidAfter: start.addingTimeInterval(10 * year),
                appleMarker: AppleMarkerOID.leaf
            )
        )
    }

    /// Like ``standard(for:now:)`` but with the subject names of Apple's real chain
    /// ("Apple Root CA - G3" or "Apple Root CA", "Apple Worldwide Developer Relations
    /// Certification Authority", and the App Store receipt signing leaf), for look-alike
    /// chains that only a key check can tell apart from Apple's.
    ///
    /// - Parameters:
    ///   - algorithm: The chain's algorithm; it picks Apple's names for JWS or receipts.
    ///   - now: The reference time for the validity windows.
    /// - Returns: The options.
    public static func appleNamed(for algorithm: SigningKeyAlgorithm, now: Date = Date()) -> SigningChainOptions {
        var options = standard(for: algorithm, now: now)
        options.root.organizationName = "Apple Inc."
        options.root.organizationalUnitName = "Apple Certification Authority"
        options.intermediate.commonName = "Apple Worldwide Developer Relations Certification Authority"
        options.intermediate.organizationName = "Apple Inc."
        options.leaf.organizationalUnitName = "Apple Worldwide Developer Relations"
        options.leaf.organizationName = "Apple Inc."
        switch algorithm {
        case .es256:
            options.root.commonName = "Apple Root CA - G3"
            options.intermediate.organizationalUnitName = "G6"
            options.leaf.commonName = "Prod ECC Mac App Store and iTunes Store Receipt Signing"
        case .rsa2048:
            options.root.commonName = "Apple Root CA"
            options.intermediate.organizationalUnitName = "G5"
            options.leaf.commonName = "Mac App Store and iTunes Store Receipt Signing"
        }
        return options
    }

    /// Removes both Apple marker extensions, for chains a verifier must reject.
    ///
    /// - Returns: A copy of the options with no marker on any certificate.
    public func withoutAppleMarkers() -> SigningChainOptions {
        var options = self
        options.root.appleMarker = nil
        options.intermediate.appleMarker = nil
        options.leaf.appleMarker = nil
        return options
    }

    private static let day: TimeInterval = 86_400
    private static let year: TimeInterval = 365 * day

    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
