import Foundation

/// The protected header of a JWS, as Apple writes it for signed App Store data.
///
/// Absent (`nil`) members are left out of the JSON. Apple's header is
/// `{"alg":"ES256","x5c":[leaf, intermediate, root]}`; the other members and values
/// exist for negative test vectors, e.g. `alg` `"none"` or a two-certificate `x5c`.
public struct JWSHeader: Codable, Hashable, Sendable {
    /// The signature algorithm; Apple uses `"ES256"`.
    public var alg: String?
    /// The certificate chain, each certificate's DER in standard base64 with padding,
    /// leaf first.
    public var x5c: [String]?
    /// A key identifier; Apple does not send one.
    public var kid: String?
    /// The media type; Apple does not send one.
    public var typ: String?

    /// Creates a header from its members.
    ///
    /// - Parameters:
    ///   - alg: The signature algorithm.
    ///   - x5c: The base64 DER certificates, leaf first.
    ///   - kid: A key identifier.
    ///   - typ: The media type.
    public init(alg: String? = "ES256", x5c: [String]? = nil, kid: String? = nil, typ: String? = nil) {
        self.alg = alg
        self.x5c = x5c
        self.kid = kid
        self.typ = typ
    }

    /// Creates a header whose `x5c` holds the given DER certificates.
    ///
    /// - Parameters:
    ///   - alg: The signature algorithm.
    ///   - certificatesDER: The certificates' DER encodings, leaf first.
    public init(alg: String? = "ES256", certificatesDER: [[UInt8]]) {
        self.init(alg: alg, x5c: certificatesDER.map { Data($0).base64EncodedString() })
    }

    /// Apple's header for a chain: `alg` ES256 and `x5c` leaf, intermediate, root.
    ///
    /// - Parameter chain: The signing chain.
    /// - Returns: The header.
    public static func apple(for chain: SigningChain) -> JWSHeader {
        JWSHeader(
            certificatesDER: [chain.leafCertificateDER, chain.intermediateCertificateDER, chain.rootCertificateDER]
        )
    }
}
