import Foundation

/// Fast base64 decoding straight from bytes: standard base64 for receipts (padding and
/// line breaks allowed), unpadded base64url for JWS (RFC 4648 §4 and §5).
enum Base64 {
    /// The two alphabets.
    enum Alphabet {
        case standard, url
    }

    /// For each of the four positions in a group of symbols, each byte's value shifted
    /// into place (the first symbol highest), 256 entries a position; `0xFF00_0000` for
    /// a byte that is not a symbol of the alphabet.
    private static func tables(_ characters: String) -> [UInt32] {
        var table = [UInt32](repeating: 0xFF00_0000, count: 1024)
        for (value, byte) in characters.utf8.enumerated() {
            for position in 0..<4 {
                table[position * 256 + Int(byte)] = UInt32(value) << UInt32(18 - 6 * position)
            }
        }
        return table
    }

    private static let standardTables = tables("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    private static let urlTables = tables("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// The bytes `text` encodes, or `nil` when it is not valid in `alphabet`.
    ///
    /// Standard: whitespace is skipped, `=` padding may close the text (then the length
    /// must be a multiple of four). URL: no padding, no whitespace.
    static func decode<Bytes: Collection<UInt8>>(_ text: Bytes, alphabet: Alphabet) -> [UInt8]? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0, alphabet: alphabet) }) {
            return decoded
        }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0, alphabet: alphabet) }
    }

    /// Decodes from a buffer: whole groups of four symbols at a time (one lookup per
    /// symbol, one check per group), and one symbol at a time around whitespace, padding
    /// and invalid bytes. Every write is within the output's capacity: four symbols give
    /// three bytes, a last partial group at most two.
    private static func decode(buffer text: UnsafeBufferPointer<UInt8>, alphabet: Alphabet) -> [UInt8]? {
        let tables = alphabet == .standard ? standardTables : urlTables
        return tables.withUnsafeBufferPointer { table in
            try? [UInt8](unsafeUninitializedCapacity: text.count / 4 * 3 + 2) { output, written in
                let count = text.count
                var index = 0
                var accumulator: UInt32 = 0
                var bits = 0
                var symbols = 0
                var padding = 0
                while index < count {
                    if bits == 0, padding == 0 {
                        while count &- index >= 4, output.count &- written >= 3 {
                            let group =
                                table[Int(text[index])] | table[256 &+ Int(text[index &+ 1])]
                                | table[512 &+ Int(text[index &+ 2])] | table[768 &+ Int(text[index &+ 3])]
                            if group & 0xFF00_0000 != 0 { break }
                            output[written] = UInt8(truncatingIfNeeded: group &>> 16)
                            output[written &+ 1] = UInt8(truncatingIfNeeded: group &>> 8)
                            output[written &+ 2] = UInt8(truncatingIfNeeded: group)
                            written &+= 3
                            symbols &+= 4
                            index &+= 4
                        }
                        if index == count { break }
                    }
                    let byte = text[index]
                    index &+= 1
                    let value = table[768 &+ Int(byte)]
                    if value & 0xFF00_0000 == 0, padding == 0 {
                        accumulator = accumulator &<< 6 | value
                        bits &+= 6
                        symbols &+= 1
                        if bits >= 8 {
                            bits &-= 8
                            guard written < output.count else { throw InvalidBase64() }
                            output[written] = UInt8(truncatingIfNeeded: accumulator &>> UInt32(bits))
                            written &+= 1
                        }
                    } else if alphabet == .standard, byte == UInt8(ascii: "=") {
                        padding &+= 1
                    } else if alphabet == .standard, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                        continue
                    } else {
                        throw InvalidBase64()
                    }
                }
                guard symbols % 4 != 1, padding <= 2 else { throw InvalidBase64() }
                if padding > 0, (symbols + padding) % 4 != 0 { throw InvalidBase64() }
            }
        }
    }

    private struct InvalidBase64: Error {}
}
