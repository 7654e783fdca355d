import Foundation

/// Fast base64 decoding straight from bytes: standard base64 for receipts (padding and
/// line breaks allowed), unpadded base64url for JWS (RFC 4648 §4 and §5).
enum Base64 {
    /// The two alphabets.
    enum Alphabet {
        case standard, url
    }

    private static func table(_ characters: String) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in characters.utf8.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }

    private static let standardValues = table("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    private static let urlValues = table("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// The bytes `text` encodes, or `nil` when it is not valid in `alphabet`.
    ///
    /// Standard: whitespace is skipped, `=` padding may close the text (then the length
    /// must be a multiple of four). URL: no padding, no whitespace.
    static func decode<Bytes: Collection<UInt8>>(_ text: Bytes, alphabet: Alphabet) -> [UInt8]? {
        let values = alphabet == .standard ? standardValues : urlValues
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var symbols = 0
        var padding = 0
        for byte in text {
            let value = values[Int(byte)]
            if value != 0xFF, padding == 0 {
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                symbols += 1
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                }
            } else if alphabet == .standard, byte == UInt8(ascii: "=") {
                padding += 1
            } else if alphabet == .standard, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                continue
            } else {
                return nil
            }
        }
        guard symbols % 4 != 1, padding <= 2 else { return nil }
        if padding > 0, (symbols + padding) % 4 != 0 { return nil }
        return output
    }
}
