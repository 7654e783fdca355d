import AppStoreSigning
import Foundation
import X509

/// The emulator's OCSP responder (RFC 6960) for the JWS leaf it signs with, and the
/// revocation of that leaf.
///
/// Answers are signed by the JWS intermediate's key. Revocations are kept in
/// `revoked-certificates.json` in the data directory (serial number in hex → revocation
/// time), so they survive a restart.
extension AppStoreEmulator {
    /// The file revocations are kept in.
    private nonisolated var revocationFile: URL {
        configuration.dataDirectory.appendingPathComponent("revoked-certificates.json")
    }

    /// The DER `OCSPResponse` to the DER `OCSPRequest` `request`: `good` or `revoked`
    /// for the certificates the JWS intermediate issued, `unauthorized` for others and
    /// for a data directory that does not keep the intermediate's key.
    func ocspResponse(to request: [UInt8]) throws -> [UInt8] {
        guard let key = identity.jwsIntermediateKey else { return OCSPResponder.errorResponse(.unauthorized) }
        let responder = try OCSPResponder(issuer: identity.jwsChain.intermediate, signingKey: key)
        let revoked = try revokedCertificates()
        return try responder.response(to: request, at: Date()) { serial in
            revoked[Self.hex(serial)].map { .revoked($0) } ?? .good
        }
    }

    /// Revokes the JWS signing leaf, from now on as the OCSP responder says; the
    /// emulator keeps signing with it. Revoking it again keeps the first time.
    ///
    /// - Returns: the leaf's serial number in hex and its revocation time.
    func revokeSigningLeaf() throws -> (serialNumber: String, revocationDate: Date) {
        var revoked = try revokedCertificates()
        let serial = Self.hex(identity.jwsChain.leaf.serialNumber)
        let date = revoked[serial] ?? Date()
        revoked[serial] = date
        try JSONResponse.encoder.encode(revoked).write(to: revocationFile, options: .atomic)
        return (serial, date)
    }

    private func revokedCertificates() throws -> [String: Date] {
        guard let data = FileManager.default.contents(atPath: revocationFile.path) else { return [:] }
        return try JSONDecoder.iso8601.decode([String: Date].self, from: data)
    }

    private static func hex(_ serial: Certificate.SerialNumber) -> String {
        serial.bytes.map { String(format: "%02x", $0) }.joined()
    }
}
