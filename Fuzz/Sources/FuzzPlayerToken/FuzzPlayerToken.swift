// libFuzzer target: the player-token (HS256 JWT) parser of `PlayerAuth`.
//
// The input is verified as sent, then again with its third part replaced by the correct
// HMAC of the first two, then as the claims JSON and as the header JSON of correctly
// signed tokens, so that the decoders and the expiry checks see mutated input too (a
// fuzzer cannot forge HMAC-SHA256).
//
// Properties: a token's player id is non-empty and at most 256 bytes; the verdict does not
// depend on anything but the token and the time; a token issued for a player id names it.

import Crypto
import Foundation
import FuzzSupport
import PlayerAuth

private let secret = "fuzzing-secret"
private let key = PlayerTokenKey(secret: secret)
private let now = Date(timeIntervalSince1970: 1_700_000_000)

@main
enum Entry {
    static func main() { LibFuzzer.run(fuzzPlayerToken) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlayerToken(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = LibFuzzer.bytes(data, size)
    let text = String(decoding: input, as: UTF8.self)
    check(text)

    let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
    if parts.count >= 2 {
        check(signed(header: String(parts[0]), claims: String(parts[1])))
    }
    // The input as the claims JSON, and as the header JSON, of correctly signed tokens.
    let json = base64URL(Data(text.utf8))
    check(signed(header: hs256Header, claims: json))
    check(signed(header: json, claims: validClaims))

    let playerId = String(text.prefix(64))
    if !playerId.isEmpty, playerId.utf8.count <= PlayerTokenKey.maximumPlayerIdLength {
        let token = key.issue(playerId: playerId, lifetime: 600, now: now)
        do {
            let named = try key.playerId(from: token, now: now)
            precondition(named == playerId, "an issued token names another player: \(playerId) → \(named)")
        } catch {
            fatalError("an issued token for \(playerId.debugDescription) is refused: \(error)")
        }
    }
    return 0
}

/// Verifies `token` twice (the verdict must not change) and checks the player id.
private func check(_ token: String) {
    let first = Result { () throws(PlayerTokenError) in try key.playerId(from: token, now: now) }
    let second = Result { () throws(PlayerTokenError) in try key.playerId(from: token, now: now) }
    precondition(first == second, "the verdict on one token changed")
    if case .success(let playerId) = first {
        precondition(
            !playerId.isEmpty && playerId.utf8.count <= PlayerTokenKey.maximumPlayerIdLength,
            "an accepted token names an empty or oversized player id")
    }
}

private let hs256Header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
private let validClaims = base64URL(Data(#"{"sub":"player","exp":1700003600}"#.utf8))

/// `header.claims.signature` with the signature the key makes.
private func signed(header: String, claims: String) -> String {
    let signingInput = "\(header).\(claims)"
    let mac = HMAC<SHA256>.authenticationCode(
        for: Data(signingInput.utf8), using: SymmetricKey(data: Data(secret.utf8)))
    return "\(signingInput).\(base64URL(Data(mac)))"
}

private func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}
