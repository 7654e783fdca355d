import Crypto
import Foundation
import PurchaseServer
import Testing

@Suite("Player tokens")
struct PlayerTokenTests {
    let verifier = PlayerTokenVerifier(secret: "the-login-servers-secret")

    @Test("a token the login server issued names its player")
    func valid() throws {
        let token = PlayerTokenVerifier.issue(playerId: "player-7", secret: "the-login-servers-secret")
        #expect(try verifier.playerId(from: token) == "player-7")
    }

    @Test("expiry is checked with leeway")
    func expiry() throws {
        let now = Date()
        let token = PlayerTokenVerifier.issue(
            playerId: "p", secret: "the-login-servers-secret", lifetime: 60, now: now)
        #expect(try verifier.playerId(from: token, now: now.addingTimeInterval(80)) == "p")
        #expect(throws: ServerError.self) { try verifier.playerId(from: token, now: now.addingTimeInterval(100)) }
    }

    @Test("a token verified before is answered again only while the clock allows, and only by its key's verifier")
    func verifiedBefore() throws {
        let now = Date()
        let token = PlayerTokenVerifier.issue(
            playerId: "p", secret: "the-login-servers-secret", lifetime: 60, now: now)
        for _ in 0..<3 { #expect(try verifier.playerId(from: token, now: now) == "p") }
        #expect { try verifier.playerId(from: token, now: now.addingTimeInterval(100)) } throws: { error in
            (error as? ServerError)?.code == "token_expired"
        }
        #expect(try verifier.playerId(from: token, now: now.addingTimeInterval(10)) == "p")
        let otherKey = PlayerTokenVerifier(secret: "another-secret")
        #expect { try otherKey.playerId(from: token, now: now) } throws: { error in
            (error as? ServerError)?.code == "invalid_token"
        }
    }

    @Test("wrong secret, alg none, tampered claims, missing sub or exp, and garbage are invalid_token")
    func invalid() throws {
        let good = PlayerTokenVerifier.issue(playerId: "alice", secret: "the-login-servers-secret")
        let parts = good.split(separator: ".").map(String.init)
        let noneHeader = encode(#"{"alg":"none","typ":"JWT"}"#)
        let bob = encode(#"{"sub":"bob","exp":4102444800}"#)
        let candidates = [
            PlayerTokenVerifier.issue(playerId: "alice", secret: "another-secret"),
            "\(noneHeader).\(parts[1]).",
            "\(parts[0]).\(bob).\(parts[2])",
            signed(#"{"exp":4102444800}"#),
            signed(#"{"sub":"alice"}"#),
            signed(#"{"sub":"","exp":4102444800}"#),
            "", "a.b", "a.b.c.d", "\u{0}.\u{1}.\u{2}", String(repeating: "x", count: 5_000),
        ]
        for token in candidates {
            #expect {
                try verifier.playerId(from: token)
            } throws: { error in
                (error as? ServerError)?.code == "invalid_token"
            }
        }
    }

    private func encode(_ json: String) -> String {
        base64URLEncode(Data(json.utf8))
    }

    /// A correctly signed token with the given claims.
    private func signed(_ claims: String) -> String {
        let good = PlayerTokenVerifier.issue(playerId: "x", secret: "the-login-servers-secret")
        let header = good.split(separator: ".")[0]
        let input = "\(header).\(encode(claims))"
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data(input.utf8), using: SymmetricKey(data: Data("the-login-servers-secret".utf8)))
        return "\(input).\(base64URLEncode(Data(mac)))"
    }
}
