import Foundation
import X509

extension ServerConfiguration {
    /// The certificates of ``additionalRoots``, file by file: a DER certificate, or every
    /// `CERTIFICATE` block of a PEM file.
    ///
    /// - Throws: ``ConfigurationError`` naming the file that cannot be read or holds no
    ///   certificate.
    public func additionalRootCertificates() throws -> [Certificate] {
        try additionalRoots.flatMap(Self.rootCertificates(atPath:))
    }

    /// The certificates of one ``additionalRoots`` file.
    ///
    /// - Throws: ``ConfigurationError`` when the file cannot be read or holds no certificate.
    static func rootCertificates(atPath path: String) throws -> [Certificate] {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("additionalRoots: cannot read \(path)")
        }
        do {
            return try certificates(in: bytes)
        } catch {
            throw ConfigurationError("additionalRoots: \(path) is not a DER or PEM certificate (\(error))")
        }
    }

    private static let pemBegin = "-----BEGIN CERTIFICATE-----"
    private static let pemEnd = "-----END CERTIFICATE-----"

    /// The certificates a DER or PEM file holds.
    private static func certificates(in bytes: Data) throws -> [Certificate] {
        guard let text = String(data: bytes, encoding: .utf8), text.contains(pemBegin) else {
            return [try Certificate(derEncoded: Array(bytes))]
        }
        var certificates: [Certificate] = []
        var rest = text[...]
        while let begin = rest.range(of: pemBegin),
            let end = rest.range(of: pemEnd, range: begin.upperBound..<rest.endIndex)
        {
            certificates.append(try Certificate(pemEncoded: String(rest[begin.lowerBound..<end.upperBound])))
            rest = rest[end.upperBound...]
        }
        guard !certificates.isEmpty else { throw ConfigurationError("no complete CERTIFICATE block") }
        return certificates
    }
}
