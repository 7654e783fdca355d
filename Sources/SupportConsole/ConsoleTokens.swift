import Crypto
import Foundation

/// Random tokens of the console (session cookies, CSRF tokens) and how they are compared and
/// stored.
enum ConsoleTokens {
    /// 32 random bytes, base64url without padding (43 characters).
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `text` looks like a token of ``random()`` (43 base64url characters).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 43
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F
            }
    }

    /// The hex SHA-256 digest of a token: what the ledger keeps instead of the token.
    static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Whether `given` equals `expected`, in time that depends on their lengths only.
    static func matches(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let left = Array(given.utf8)
        let right = Array(expected.utf8)
        guard left.count == right.count, !right.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
