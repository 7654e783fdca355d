/// The shape of a compact JWS, checked before verification so that malformed input is a
/// 400, not a verification result.
enum CompactJWS {
    /// Whether `text` has a compact JWS's shape: three non-empty base64url segments joined
    /// by dots (what the API document's pattern allows).
    static func isShaped(_ text: String) -> Bool {
        let segments = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return segments.count == 3
            && segments.allSatisfy { segment in
                !segment.isEmpty
                    && segment.allSatisfy { byte in
                        switch byte {
                        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                            true
                        default:
                            false
                        }
                    }
            }
    }
}
