import Foundation

/// The three parts of a JWS in compact serialization, split but not yet trusted.
struct CompactJWS: Sendable {
    /// The JOSE header fields StoreKeeper reads.
    struct Header: Decodable, Sendable {
        var alg: String?
        var x5c: [String]?
    }

    /// The protected header segment, as sent (base64url): it carries `alg` and the
    /// `x5c` certificate bytes verbatim, so it keys the chain cache.
    let headerSegment: String
    /// The bytes the signature covers: `header.payload` in ASCII.
    let signingInput: ArraySlice<UInt8>
    /// The decoded payload bytes.
    let payload: Data
    /// The decoded signature bytes.
    let signature: Data

    /// The largest JWS accepted: Apple's are about 5 KB, a notification about 15 KB.
    static let maximumLength = 256 * 1024

    /// Splits `text` (surrounding whitespace ignored) into its parts.
    init(_ text: String) throws(VerificationError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw VerificationError(.inputTooLarge, "a JWS of \(bytes.count) bytes exceeds \(Self.maximumLength)")
        }
        let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        let start = bytes.firstIndex { !isWhitespace($0) } ?? bytes.endIndex
        let end = (bytes.lastIndex { !isWhitespace($0) } ?? start - 1) + 1
        let compact = bytes[start..<max(start, end)]
        let dot = UInt8(ascii: ".")
        guard let first = compact.firstIndex(of: dot), first > compact.startIndex,
            let second = compact[(first + 1)...].firstIndex(of: dot), second > first + 1,
            !compact[(second + 1)...].contains(dot)
        else {
            let parts = compact.split(separator: dot, omittingEmptySubsequences: false).count
            throw VerificationError(.malformedContainer, "a compact JWS has three non-empty parts; found \(parts)")
        }
        let dots = [first, second]
        guard let payload = Base64.decode(compact[(dots[0] + 1)..<dots[1]], alphabet: .url) else {
            throw VerificationError(.malformedEncoding, "the JWS payload is not base64url")
        }
        guard let signature = Base64.decode(compact[(dots[1] + 1)...], alphabet: .url) else {
            throw VerificationError(.malformedEncoding, "the JWS signature is not base64url")
        }
        self.headerSegment = String(decoding: compact[..<dots[0]], as: UTF8.self)
        self.signingInput = compact[..<dots[1]]
        self.payload = Data(payload)
        self.signature = Data(signature)
    }

    /// Decodes the protected header.
    func decodeHeader() throws(VerificationError) -> Header {
        guard let bytes = Base64.decode(headerSegment.utf8, alphabet: .url) else {
            throw VerificationError(.malformedEncoding, "the JWS header is not base64url")
        }
        do {
            return try JSONDecoder().decode(Header.self, from: Data(bytes))
        } catch {
            throw VerificationError(.malformedContainer, "the JWS header is not a JSON object with alg and x5c")
        }
    }
}
