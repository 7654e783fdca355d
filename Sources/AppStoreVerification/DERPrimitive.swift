/// A reader for the small primitive DER values inside receipt attributes (strings and
/// integers), which avoids building a node tree for each one.
enum DERPrimitive {
    /// The tag and contents of the single primitive value `bytes` encodes, or `nil` when
    /// `bytes` is not exactly one definite-length primitive TLV.
    static func read(_ bytes: ArraySlice<UInt8>) -> (tag: UInt8, contents: ArraySlice<UInt8>)? {
        var index = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let tag = bytes[index]
        guard tag & 0x20 == 0, tag & 0x1F != 0x1F else { return nil }  // primitive, low tag number
        index += 1
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let octets = length & 0x7F
            guard (1...4).contains(octets), bytes.endIndex - index >= octets else { return nil }
            length = 0
            for _ in 0..<octets {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
        }
        guard bytes.endIndex - index == length else { return nil }
        return (tag, bytes[index...])
    }

    /// A two's-complement big-endian INTEGER of at most eight bytes.
    static func integer(_ bytes: ArraySlice<UInt8>) -> Int64? {
        guard let (tag, contents) = read(bytes), tag == 0x02 else { return nil }
        return integer(contents: contents)
    }

    /// The value of an INTEGER's contents octets: two's complement, big-endian, one to
    /// eight bytes.
    static func integer(contents: ArraySlice<UInt8>) -> Int64? {
        guard contents.count <= 8, let first = contents.first else { return nil }
        var value = Int64(Int8(bitPattern: first))
        for byte in contents.dropFirst() { value = value << 8 | Int64(byte) }
        return value
    }

    /// A UTF8String, IA5String or PrintableString.
    static func string(_ bytes: ArraySlice<UInt8>) -> String? {
        guard let (tag, contents) = read(bytes), isString(tag) else { return nil }
        return String(validating: contents, as: UTF8.self)
    }

    /// Whether `tag` is that of a UTF8String (`0x0C`), IA5String (`0x16`) or
    /// PrintableString (`0x13`).
    static func isString(_ tag: UInt8) -> Bool {
        tag == 0x0C || tag == 0x16 || tag == 0x13
    }
}
