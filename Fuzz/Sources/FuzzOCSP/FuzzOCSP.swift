// libFuzzer target: the two OCSP parsers that read bytes from the network.
//
// The input goes, as sent, to the verifier's reader of a responder's `OCSPResponse` (what
// the server's revocation check receives) and to the emulator's reader of an `OCSPRequest`
// (what anyone may POST to `/emulator/v1/ocsp`). It is also signed with the issuer's key as
// the `tbsResponseData` of a basic response, so that mutations reach the parts of the
// response reader that run only once a signature verifies: the single responses, the
// certificate status and the dates. Nothing may trap or hang; a response the reader
// accepts must be about the certificate asked for, and an answer the responder writes to
// any request must itself be a response the reader can take apart.

import AppStoreSigning
import Crypto
import Foundation
import FuzzSupport
import SwiftASN1
import X509

@testable import AppStoreVerification

/// The leaf the responses are about, its issuer (the intermediate) and the issuer's key:
/// an emulator's chain kept in Fuzz/Fixtures/ocsp-chain.pem, the one the seeds in
/// Corpus/FuzzOCSP were answered for, so that their certificate ids match.
private let fixture: (leaf: Certificate, issuer: Certificate, issuerKey: P256.Signing.PrivateKey) = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/ocsp-chain.pem")
    let text = try! String(contentsOf: url, encoding: .utf8)
    let blocks = try! PEMDocument.parseMultiple(pemString: text)
    return (
        try! Certificate(pemDocument: blocks[0]), try! Certificate(pemDocument: blocks[1]),
        try! P256.Signing.PrivateKey(pemRepresentation: blocks[2].pemString)
    )
}()
private let certificateID = try! OCSPCertificateID(certificate: fixture.leaf, issuer: fixture.issuer)
private let responder = try! OCSPResponder(issuer: fixture.issuer, signingKey: fixture.issuerKey)
private let now = Date(timeIntervalSince1970: 1_700_000_000)

@main
enum Entry {
    static func main() { LibFuzzer.run(fuzzOCSP) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOCSP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(LibFuzzer.bytes(data, size))
    _ = try? OCSPResponse(der: bytes, about: certificateID, signedBy: fixture.issuer)
    if let answer = try? responder.response(to: bytes, at: now, status: { _ in .good }) {
        precondition((try? DER.parse(answer)) != nil, "the responder wrote an answer that is not DER")
    }
    if (try? DER.parse(bytes)) != nil,  // only a DER element can stand in the SEQUENCE
        let signed = try? OCSPResponder.successfulResponse(tbsResponseData: bytes, signedWith: fixture.issuerKey),
        let response = try? OCSPResponse(der: signed, about: certificateID, signedBy: fixture.issuer)
    {
        _ = response.status
        if let next = response.nextUpdate {
            precondition(next.timeIntervalSince1970.isFinite, "nextUpdate is not a finite date")
        }
    }
    return 0
}
