import Foundation

/// Decoding of unpadded base64url (RFC 4648 §5), as JWS uses it, straight from bytes.
enum Base64URL {
    /// Each byte's 6-bit value, or 0xFF when it is not in the base64url alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// The bytes `text` encodes; `nil` when it holds anything but base64url characters
    /// or has an impossible length.
    static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> Data? {
        let count = text.count
        guard count % 4 != 1 else { return nil }
        var output = Data(capacity: count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }
}
