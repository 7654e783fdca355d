import Foundation
import SwiftASN1
import X509

/// What an OCSP responder said about one certificate, read from a DER `OCSPResponse`
/// (RFC 6960 §4.2.1) whose `BasicOCSPResponse` signature verified with the issuer's key.
struct OCSPResponse: Sendable {
    /// The `certStatus` of the matching `SingleResponse`.
    enum CertificateStatus: Hashable, Sendable {
        /// `good [0]`: not revoked.
        case good
        /// `revoked [1]`, with its `revocationTime`.
        case revoked(Date)
        /// `unknown [2]`: the responder does not know the certificate.
        case unknown
    }

    /// The certificate's status.
    let status: CertificateStatus
    /// `thisUpdate`: when the status was known to be correct.
    let thisUpdate: Date
    /// `nextUpdate`: when newer information will be available, if the responder says.
    let nextUpdate: Date?

    /// `OCSPResponseStatus` values (RFC 6960 §4.2.1).
    private static let statusNames: [UInt8: String] = [
        1: "malformedRequest", 2: "internalError", 3: "tryLater", 5: "sigRequired", 6: "unauthorized",
    ]
    private static let basicResponseType: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 1, 1]
    private static let signatureAlgorithms: [ASN1ObjectIdentifier: Certificate.SignatureAlgorithm] = [
        [1, 2, 840, 10045, 4, 3, 2]: .ecdsaWithSHA256,
        [1, 2, 840, 10045, 4, 3, 3]: .ecdsaWithSHA384,
    ]

    /// Reads the answer about `certificateID` from `der`, checking that `issuer`'s key
    /// signed it.
    ///
    /// - Throws: ``VerificationError`` `malformed_container` when the response is not
    ///   a successful, well-formed basic response about the certificate, or
    ///   `signature_invalid` when its signature does not verify with `issuer`'s key.
    init(der: [UInt8], about certificateID: OCSPCertificateID, signedBy issuer: Certificate) throws(VerificationError) {
        let root: ASN1Node
        do {
            root = try DER.parse(der)
        } catch {
            throw VerificationError(.malformedContainer, "the OCSP response is not DER: \(error)")
        }
        let response = try root.children(.sequence, atLeast: 1, what: "OCSPResponse")
        guard response[0].identifier == .enumerated, case .primitive(let statusBytes) = response[0].content,
            statusBytes.count == 1, let statusByte = statusBytes.first
        else {
            throw VerificationError(.malformedContainer, "OCSPResponse.responseStatus is not a one-byte ENUMERATED")
        }
        guard statusByte == 0 else {
            let name = Self.statusNames[statusByte] ?? "status \(statusByte)"
            throw VerificationError(.malformedContainer, "the responder answered \(name)")
        }
        guard response.count == 2, response[1].isContextSpecific(0),
            case .constructed(let wrapped) = response[1].content,
            let responseBytesNode = Array(wrapped).first
        else {
            throw VerificationError(.malformedContainer, "a successful OCSPResponse lacks responseBytes")
        }
        let responseBytes = try responseBytesNode.children(.sequence, atLeast: 2, what: "ResponseBytes")
        guard try responseBytes[0].objectIdentifier(what: "ResponseBytes.responseType") == Self.basicResponseType
        else {
            throw VerificationError(.malformedContainer, "the OCSP response is not id-pkix-ocsp-basic")
        }
        let basic: [ASN1Node]
        do {
            let octets = try ASN1OctetString(derEncoded: responseBytes[1]).bytes
            basic = try DER.parse(Array(octets)).children(.sequence, atLeast: 3, what: "BasicOCSPResponse")
        } catch let error as VerificationError {
            throw error
        } catch {
            throw VerificationError(.malformedContainer, "BasicOCSPResponse is not DER: \(error)")
        }
        try Self.checkSignature(basic, issuer: issuer)
        let single = try Self.singleResponse(in: basic[0], about: certificateID)
        status = try Self.certificateStatus(single[1])
        thisUpdate = try Self.date(single[2], what: "SingleResponse.thisUpdate")
        var nextUpdate: Date?
        for field in single.dropFirst(3) where field.isContextSpecific(0) {
            guard case .constructed(let inner) = field.content, let time = Array(inner).first else {
                throw VerificationError(.malformedContainer, "SingleResponse.nextUpdate is malformed")
            }
            nextUpdate = try Self.date(time, what: "SingleResponse.nextUpdate")
        }
        self.nextUpdate = nextUpdate
    }

    /// Checks the signature over `tbsResponseData` with the issuer's key.
    private static func checkSignature(_ basic: [ASN1Node], issuer: Certificate) throws(VerificationError) {
        let algorithmFields = try basic[1].children(.sequence, atLeast: 1, what: "BasicOCSPResponse.signatureAlgorithm")
        let oid = try algorithmFields[0].objectIdentifier(what: "BasicOCSPResponse.signatureAlgorithm")
        guard let algorithm = signatureAlgorithms[oid] else {
            throw VerificationError(.unsupportedAlgorithm, "the OCSP response is signed with \(oid), not ECDSA")
        }
        let signature: ASN1BitString
        do {
            signature = try ASN1BitString(derEncoded: basic[2])
        } catch {
            throw VerificationError(.malformedContainer, "BasicOCSPResponse.signature is not a BIT STRING")
        }
        guard
            issuer.publicKey.isValidSignature(
                signature.bytes, for: basic[0].encodedBytes, signatureAlgorithm: algorithm)
        else {
            throw VerificationError(.signatureInvalid, "the OCSP response is not signed by the certificate's issuer")
        }
    }

    /// The fields of the `SingleResponse` of `responseData` about `certificateID`.
    private static func singleResponse(
        in responseData: ASN1Node,
        about certificateID: OCSPCertificateID
    ) throws(VerificationError) -> [ASN1Node] {
        let fields = try responseData.children(.sequence, atLeast: 3, what: "ResponseData")
        let index = fields[0].isContextSpecific(0) ? 3 : 2  // an explicit version shifts the fields
        guard index < fields.count else {
            throw VerificationError(.malformedContainer, "ResponseData lacks its responses")
        }
        for node in try fields[index].children(.sequence, what: "ResponseData.responses") {
            let single = try node.children(.sequence, atLeast: 3, what: "SingleResponse")
            if try OCSPCertificateID(node: single[0]) == certificateID { return single }
        }
        throw VerificationError(.malformedContainer, "the OCSP response says nothing about the certificate asked about")
    }

    private static func certificateStatus(_ node: ASN1Node) throws(VerificationError) -> CertificateStatus {
        if node.isContextSpecific(0) { return .good }
        if node.isContextSpecific(2) { return .unknown }
        guard node.isContextSpecific(1), case .constructed(let revokedInfo) = node.content,
            let revocationTime = Array(revokedInfo).first
        else {
            throw VerificationError(.malformedContainer, "SingleResponse.certStatus is not good, revoked or unknown")
        }
        return .revoked(try date(revocationTime, what: "RevokedInfo.revocationTime"))
    }

    private static func date(_ node: ASN1Node, what: String) throws(VerificationError) -> Date {
        let time: GeneralizedTime
        do {
            time = try GeneralizedTime(derEncoded: node)
        } catch {
            throw VerificationError(.malformedContainer, "\(what) is not a GeneralizedTime")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(
            year: time.year, month: time.month, day: time.day,
            hour: time.hours, minute: time.minutes, second: time.seconds
        )
        guard let date = calendar.date(from: components) else {
            throw VerificationError(.malformedContainer, "\(what) is not a date")
        }
        return date.addingTimeInterval(time.fractionalSeconds)
    }
}
