// libFuzzer target: compact JWS splitting, base64url decoding and protected-header parsing,
// plus everything `JWSVerifier` and `AppStoreServerAPITokenVerifier` read from a JWS before
// a signature verifies (the payload JSON of each App Store payload type, the signing date
// and claims they expose).
//
// The input is also tried as the payload JSON, as the header JSON and as the claims of an
// App Store Server API token signed with a key the verifier knows (base64url-encoded into
// a JWS), so that mutations reach the JSON decoders and the claim checks directly. The
// `x5c` certificates of a header that decodes are parsed, as `JWSVerifier` does.
//
// Properties: the signing input is `header.payload` as sent; the payload, re-encoded in
// base64url, decodes to the same bytes; a header that decodes, re-encoded, decodes to the
// same `alg` and `x5c`.

import AppStoreModel
import AppStoreSigning
import Crypto
import Foundation
import FuzzSupport
import X509

@testable import AppStoreVerification

/// The key of the App Store Server API tokens the target signs.
private let apiKey = P256.Signing.PrivateKey()
/// A verifier of App Store Server API tokens with that key registered.
private let tokenVerifier = AppStoreServerAPITokenVerifier(
    key: .init(keyId: "FUZZKEY", issuerId: "fuzz", bundleId: "com.example.fuzz", publicKey: apiKey.publicKey)
)
private let now = Date(timeIntervalSince1970: 1_700_000_000)

/// The header fields `CompactJWS.Header` reads, for re-encoding.
private struct HeaderFields: Encodable {
    var alg: String?
    var x5c: [String]?
}

@main
enum Entry {
    static func main() { LibFuzzer.run(fuzzCompactJWS) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompactJWS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = LibFuzzer.bytes(data, size)
    let text = String(decoding: input, as: UTF8.self)
    _ = try? tokenVerifier.verify(text, at: now)
    // The input as a payload, as a protected header, and as the claims of a correctly
    // signed API token, so that JSON mutates directly.
    let raw = Data(text.utf8)
    decodePayloads(raw)
    _ = try? tokenVerifier.verify(signedAPIToken(claims: raw), at: now)
    if let header = try? CompactJWS("\(raw.base64URLEncodedString).e30.c2ln").decodeHeader() {
        checkHeaderRoundTrip(header, payloadSegment: "e30")
    }

    guard let jws = try? CompactJWS(text) else { return 0 }

    let segments = String(decoding: jws.signingInput, as: UTF8.self).split(
        separator: ".", omittingEmptySubsequences: false)
    precondition(segments.count == 2 && segments[0] == jws.headerSegment, "the signing input is not header.payload")
    let payloadSegment = Data(jws.payload).base64URLEncodedString
    precondition(
        Base64.decode(payloadSegment.utf8, alphabet: .url).map { Data($0) } == jws.payload,
        "the payload, re-encoded in base64url, decodes differently")

    decodePayloads(jws.payload)
    guard let header = try? jws.decodeHeader() else { return 0 }
    checkHeaderRoundTrip(header, payloadSegment: payloadSegment)
    // `JWSVerifier` parses the leaf and intermediate before any signature check.
    for entry in (header.x5c ?? []).prefix(2) {
        guard let der = Data(base64Encoded: entry) else { continue }
        _ = try? Certificate(derEncoded: Array(der))
    }
    return 0
}

/// An App Store Server API token with `claims` as its payload, signed with ``apiKey``.
private func signedAPIToken(claims: Data) -> String {
    let header = Data(#"{"alg":"ES256","kid":"FUZZKEY","typ":"JWT"}"#.utf8).base64URLEncodedString
    let signingInput = "\(header).\(claims.base64URLEncodedString)"
    guard let signature = try? apiKey.signature(for: Data(signingInput.utf8)) else {
        fatalError("P-256 signing failed")
    }
    return "\(signingInput).\(signature.rawRepresentation.base64URLEncodedString)"
}

/// Decodes `payload` as each payload type `JWSVerifier` verifies, as it does before the
/// signature is checked.
private func decodePayloads(_ payload: Data) {
    func decode<Payload: VerifiablePayload>(_ type: Payload.Type) {
        guard let decoded = try? JSONDecoder().decode(type, from: payload) else { return }
        _ = decoded.signingDate
        _ = decoded.claims
    }
    decode(JWSTransactionDecodedPayload.self)
    decode(JWSRenewalInfoDecodedPayload.self)
    decode(JWSAppTransactionDecodedPayload.self)
    decode(ResponseBodyV2DecodedPayload.self)
    decode(AnySignedPayload.self)
}

/// Re-encodes `header` into a new JWS and checks it decodes to the same fields.
private func checkHeaderRoundTrip(_ header: CompactJWS.Header, payloadSegment: String) {
    guard let json = try? JSONEncoder().encode(HeaderFields(alg: header.alg, x5c: header.x5c)) else {
        fatalError("a decoded header does not encode")
    }
    let rebuilt = "\(json.base64URLEncodedString).\(payloadSegment.isEmpty ? "e30" : payloadSegment).c2ln"
    guard let again = try? CompactJWS(rebuilt).decodeHeader() else {
        fatalError("a decoded header, re-encoded, no longer decodes: \(rebuilt)")
    }
    precondition(
        again.alg == header.alg && again.x5c == header.x5c,
        "a decoded header, re-encoded, decodes differently: \(rebuilt)")
}
