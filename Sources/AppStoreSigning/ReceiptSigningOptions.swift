/// How ``ReceiptSigner`` builds the PKCS#7 container.
public struct ReceiptSigningOptions: Hashable, Sendable {
    /// The digest of the RSA PKCS#1 v1.5 signature.
    public enum Digest: String, Hashable, Sendable {
        /// SHA-256 (2.16.840.1.101.3.4.2.1), as on receipts issued since 2023.
        case sha256
        /// SHA-1 (1.3.14.3.2.26), as on older receipts.
        case sha1
    }

    /// The ASN.1 encoding of the container.
    public enum Encoding: Hashable, Sendable {
        /// DER throughout: definite lengths, the content as one primitive OCTET STRING.
        case der
        /// BER as Apple's and Xcode's receipts use it: ContentInfo, SignedData,
        /// encapsulated content info and content with indefinite lengths and
        /// end-of-contents markers, the content as a constructed OCTET STRING of
        /// primitive chunks of at most `chunkSize` bytes.
        case berIndefiniteLength(chunkSize: Int)

        /// BER with 1,000-byte content chunks.
        public static let ber = Encoding.berIndefiniteLength(chunkSize: 1000)
    }

    /// Which certificates go into the SignedData `certificates` field.
    public enum Certificates: Hashable, Sendable {
        /// Leaf, intermediate and root, as Apple sends them.
        case fullChain
        /// Leaf and intermediate only.
        case leafAndIntermediate
        /// No certificates at all.
        case omitted
        /// These DER encodings, verbatim and in this order (they need not be valid).
        case custom([[UInt8]])
    }

    /// The signature digest; SHA-256 by default.
    public var digest: Digest
    /// The container encoding; DER by default.
    public var encoding: Encoding
    /// The included certificates; the full chain by default.
    public var certificates: Certificates

    /// Creates options.
    ///
    /// - Parameters:
    ///   - digest: The signature digest.
    ///   - encoding: The container encoding.
    ///   - certificates: The included certificates.
    public init(digest: Digest = .sha256, encoding: Encoding = .der, certificates: Certificates = .fullChain) {
        self.digest = digest
        self.encoding = encoding
        self.certificates = certificates
    }
}
