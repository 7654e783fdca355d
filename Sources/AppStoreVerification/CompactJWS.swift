import Foundation

/// The three parts of a JWS in compact serialization, split but not yet trusted.
struct CompactJWS: Sendable {
    /// The JOSE header fields StoreKeeper reads.
    struct Header: Decodable, Sendable {
        var alg: String?
        var x5c: [String]?
    }

    /// The protected header segment, as sent (base64url).
    let headerSegment: Substring
    /// The bytes the signature covers: `header.payload` in ASCII.
    let signingInput: Substring
    /// The decoded payload bytes.
    let payload: Data
    /// The decoded signature bytes.
    let signature: Data

    /// The largest JWS accepted: Apple's are about 5 KB, a notification about 15 KB.
    static let maximumLength = 256 * 1024

    /// Splits `text` (surrounding whitespace ignored) into its parts.
    init(_ text: String) throws(VerificationError) {
        let compact = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard compact.utf8.count <= Self.maximumLength else {
            throw VerificationError(
                .inputTooLarge, "a JWS of \(compact.utf8.count) bytes exceeds \(Self.maximumLength)")
        }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw VerificationError(
                .malformedContainer, "a compact JWS has three dot-separated parts; found \(parts.count)")
        }
        guard let payload = Base64URL.decode(parts[1]) else {
            throw VerificationError(.malformedEncoding, "the JWS payload is not base64url")
        }
        guard let signature = Base64URL.decode(parts[2]) else {
            throw VerificationError(.malformedEncoding, "the JWS signature is not base64url")
        }
        self.headerSegment = parts[0]
        self.signingInput = compact[parts[0].startIndex..<parts[1].endIndex]
        self.payload = payload
        self.signature = signature
    }

    /// Decodes the protected header.
    func decodeHeader() throws(VerificationError) -> Header {
        guard let bytes = Base64URL.decode(headerSegment) else {
            throw VerificationError(.malformedEncoding, "the JWS header is not base64url")
        }
        do {
            return try JSONDecoder().decode(Header.self, from: bytes)
        } catch {
            throw VerificationError(.malformedContainer, "the JWS header is not a JSON object with alg and x5c")
        }
    }
}
