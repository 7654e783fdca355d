import Crypto
import Foundation
import SwiftASN1
import X509

/// Answers OCSP requests (RFC 6960) about the certificates one issuer issued, signing
/// the answers with the issuer's key (the CA itself as responder, §2.2).
///
/// Requests are read as DER `OCSPRequest`s; `CertID`s naming another issuer, or using
/// another hash than SHA-1, are not answered (an `unauthorized` response when none is
/// left). The signing key is not checked against the issuer, so mis-signed answers can
/// be built on purpose.
public struct OCSPResponder: Sendable {
    /// A certificate's status, as a `SingleResponse` states it.
    public enum CertificateStatus: Hashable, Sendable {
        /// Not revoked.
        case good
        /// Revoked at the given time.
        case revoked(Date)
        /// Not issued by this issuer as far as the responder knows.
        case unknown
    }

    /// The `OCSPResponseStatus` values of unsuccessful responses (RFC 6960 §4.2.1).
    public enum ErrorStatus: UInt8, Sendable {
        /// The request does not conform to the OCSP syntax.
        case malformedRequest = 1
        /// The responder reached an inconsistent internal state.
        case internalError = 2
        /// The responder cannot answer now; try again later.
        case tryLater = 3
        /// The responder may not answer for the certificate.
        case unauthorized = 6
    }

    /// The issuer whose certificates are answered for.
    public let issuer: Certificate
    /// How long after `thisUpdate` an answer's `nextUpdate` lies.
    public let validity: TimeInterval

    private let signingKey: P256.Signing.PrivateKey
    private let issuerNameHash: [UInt8]
    private let issuerKeyHash: [UInt8]

    private static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]
    private static let basicResponseType: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 1, 1]
    private static let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]

    /// Creates a responder for `issuer`'s certificates signing with `signingKey`.
    ///
    /// - Parameters:
    ///   - issuer: The issuing CA's certificate.
    ///   - signingKey: The key answers are signed with: the issuer's, for valid answers.
    ///   - validity: Seconds from `thisUpdate` to `nextUpdate`.
    public init(issuer: Certificate, signingKey: P256.Signing.PrivateKey, validity: TimeInterval = 3600) throws {
        self.issuer = issuer
        self.signingKey = signingKey
        self.validity = validity
        var name = DER.Serializer()
        try name.serialize(issuer.subject)
        var keyInfo = DER.Serializer()
        try keyInfo.serialize(issuer.publicKey)
        guard case .constructed(let fields) = try DER.parse(keyInfo.serializedBytes).content,
            let bits = Array(fields).last
        else {
            throw SigningError.unsupportedLeafKey("the issuer's SubjectPublicKeyInfo is malformed")
        }
        issuerNameHash = Array(Insecure.SHA1.hash(data: name.serializedBytes))
        issuerKeyHash = Array(Insecure.SHA1.hash(data: Array(try ASN1BitString(derEncoded: bits).bytes)))
    }

    /// The DER `OCSPResponse` to `request`.
    ///
    /// - Parameters:
    ///   - request: The DER `OCSPRequest`.
    ///   - now: The time of the answer (`producedAt`, `thisUpdate`).
    ///   - status: The status of the certificate with a given serial number.
    /// - Returns: A signed basic response, or `malformedRequest` / `unauthorized`.
    public func response(
        to request: [UInt8],
        at now: Date,
        status: (Certificate.SerialNumber) -> CertificateStatus
    ) throws -> [UInt8] {
        guard let certificateIDs = try? certificateIDs(in: request) else {
            return Self.errorResponse(.malformedRequest)
        }
        let answered = certificateIDs.filter { $0.nameHash == issuerNameHash && $0.keyHash == issuerKeyHash }
        guard !answered.isEmpty else { return Self.errorResponse(.unauthorized) }

        var tbs = DER.Serializer()
        try tbs.appendConstructedNode(identifier: .sequence) { responseData in
            try responseData.serialize(explicitlyTaggedWithTagNumber: 2, tagClass: .contextSpecific) { responderID in
                try responderID.serialize(ASN1OctetString(contentBytes: issuerKeyHash[...]))
            }
            try responseData.serialize(Self.generalizedTime(now))
            try responseData.appendConstructedNode(identifier: .sequence) { responses in
                for certificateID in answered {
                    try single(
                        certificateID, status(Certificate.SerialNumber(bytes: certificateID.serial)), now, &responses)
                }
            }
        }
        return try Self.successfulResponse(tbsResponseData: tbs.serializedBytes, signedWith: signingKey)
    }

    /// A successful DER `OCSPResponse` whose `BasicOCSPResponse` carries `tbs` as its
    /// `tbsResponseData`, signed with `key` (ECDSA with SHA-256), as a responder sends it.
    ///
    /// - Parameters:
    ///   - tbs: The DER `ResponseData`.
    ///   - key: The issuer's key (or a delegated responder's).
    public static func successfulResponse(
        tbsResponseData tbs: [UInt8], signedWith key: P256.Signing.PrivateKey
    ) throws -> [UInt8] {
        let signature = try key.signature(for: SHA256.hash(data: tbs)).derRepresentation
        var basic = DER.Serializer()
        try basic.appendConstructedNode(identifier: .sequence) { basic in
            basic.serializeRawBytes(tbs)
            try basic.appendConstructedNode(identifier: .sequence) { try $0.serialize(Self.ecdsaWithSHA256) }
            try basic.serialize(ASN1BitString(bytes: ArraySlice(signature)))
        }
        var response = DER.Serializer()
        try response.appendConstructedNode(identifier: .sequence) { response in
            response.appendPrimitiveNode(identifier: .enumerated) { $0.append(0) }
            try response.serialize(explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific) { wrapped in
                try wrapped.appendConstructedNode(identifier: .sequence) { responseBytes in
                    try responseBytes.serialize(Self.basicResponseType)
                    try responseBytes.serialize(ASN1OctetString(contentBytes: basic.serializedBytes[...]))
                }
            }
        }
        return response.serializedBytes
    }

    /// The DER `OCSPResponse` carrying only an unsuccessful `responseStatus`.
    public static func errorResponse(_ status: ErrorStatus) -> [UInt8] {
        var response = DER.Serializer()
        response.appendConstructedNode(identifier: .sequence) { response in
            response.appendPrimitiveNode(identifier: .enumerated) { $0.append(status.rawValue) }
        }
        return response.serializedBytes
    }

    /// A requested `CertID`: its encoding and the fields compared.
    private struct RequestedID {
        var node: ASN1Node
        var nameHash: [UInt8]
        var keyHash: [UInt8]
        var serial: ArraySlice<UInt8>
    }

    private func certificateIDs(in request: [UInt8]) throws -> [RequestedID] {
        let ocspRequest = try Self.fields(of: DER.parse(request), atLeast: 1)
        let tbsRequest = try Self.fields(of: ocspRequest[0])
        guard let requestList = tbsRequest.first(where: { $0.identifier == .sequence }) else {
            throw ASN1Error.invalidASN1Object(reason: "TBSRequest lacks requestList")
        }
        return try Self.fields(of: requestList).compactMap { request in
            let requestCertificateID = try Self.fields(of: request, atLeast: 1)[0]
            let certificateID = try Self.fields(of: requestCertificateID)
            guard certificateID.count == 4,
                try ASN1ObjectIdentifier(derEncoded: Self.fields(of: certificateID[0], atLeast: 1)[0]) == Self.sha1
            else { return nil }
            return RequestedID(
                node: requestCertificateID,
                nameHash: Array(try ASN1OctetString(derEncoded: certificateID[1]).bytes),
                keyHash: Array(try ASN1OctetString(derEncoded: certificateID[2]).bytes),
                serial: try ArraySlice<UInt8>(derEncoded: certificateID[3])
            )
        }
    }

    private func single(
        _ certificateID: RequestedID,
        _ status: CertificateStatus,
        _ now: Date,
        _ serializer: inout DER.Serializer
    ) throws {
        try serializer.appendConstructedNode(identifier: .sequence) { single in
            single.serialize(certificateID.node)
            switch status {
            case .good:
                single.appendPrimitiveNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) {
                    _ in
                }
            case .revoked(let time):
                try single.appendConstructedNode(
                    identifier: ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)
                ) {
                    try $0.serialize(Self.generalizedTime(time))
                }
            case .unknown:
                single.appendPrimitiveNode(identifier: ASN1Identifier(tagWithNumber: 2, tagClass: .contextSpecific)) {
                    _ in
                }
            }
            try single.serialize(Self.generalizedTime(now))
            try single.serialize(explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific) {
                try $0.serialize(Self.generalizedTime(now.addingTimeInterval(validity)))
            }
        }
    }

    /// The elements of a SEQUENCE, refused unless there are at least `minimum`.
    private static func fields(of node: ASN1Node, atLeast minimum: Int = 0) throws -> [ASN1Node] {
        guard node.identifier == .sequence, case .constructed(let children) = node.content else {
            throw ASN1Error.unexpectedFieldType(node.identifier)
        }
        let fields = Array(children)
        guard fields.count >= minimum else {
            throw ASN1Error.invalidASN1Object(
                reason: "a SEQUENCE of \(fields.count) elements where \(minimum) are needed")
        }
        return fields
    }

    private static func generalizedTime(_ date: Date) throws -> GeneralizedTime {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return try GeneralizedTime(
            year: parts.year!, month: parts.month!, day: parts.day!,
            hours: parts.hour!, minutes: parts.minute!, seconds: parts.second!, fractionalSeconds: 0
        )
    }
}
