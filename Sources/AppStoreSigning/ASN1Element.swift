/// A minimal ASN.1 tree that can be written with definite (DER) or indefinite (BER)
/// lengths, for the parts of the PKCS#7 container whose encoding varies.
///
/// Identifiers are single octets (tag numbers below 31), which is all PKCS#7 needs.
indirect enum ASN1Element {
    /// A primitive value: identifier octet and contents.
    case primitive(identifier: UInt8, contents: [UInt8])
    /// A constructed value: identifier octet (with the constructed bit), children, and
    /// whether to write it with an indefinite length and end-of-contents.
    case constructed(identifier: UInt8, children: [ASN1Element], indefiniteLength: Bool)
    /// A complete, already encoded TLV written verbatim.
    case encoded([UInt8])

    static let sequence: UInt8 = 0x30
    static let set: UInt8 = 0x31
    static let octetString: UInt8 = 0x04
    static let constructedOctetString: UInt8 = 0x24
    static let contextZero: UInt8 = 0xA0

    /// The element's encoding.
    var bytes: [UInt8] {
        var output: [UInt8] = []
        write(into: &output)
        return output
    }

    /// Appends the element's encoding to `output`.
    func write(into output: inout [UInt8]) {
        switch self {
        case .primitive(let identifier, let contents):
            output.append(identifier)
            Self.appendDefiniteLength(contents.count, to: &output)
            output.append(contentsOf: contents)
        case .constructed(let identifier, let children, let indefiniteLength):
            output.append(identifier)
            if indefiniteLength {
                output.append(0x80)
                for child in children {
                    child.write(into: &output)
                }
                output.append(contentsOf: [0x00, 0x00])
            } else {
                var contents: [UInt8] = []
                for child in children {
                    child.write(into: &contents)
                }
                Self.appendDefiniteLength(contents.count, to: &output)
                output.append(contentsOf: contents)
            }
        case .encoded(let bytes):
            output.append(contentsOf: bytes)
        }
    }

    /// Appends a definite length in the shortest form.
    static func appendDefiniteLength(_ length: Int, to output: inout [UInt8]) {
        if length < 0x80 {
            output.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var remaining = length
        while remaining > 0 {
            octets.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        }
        output.append(0x80 | UInt8(octets.count))
        output.append(contentsOf: octets)
    }
}
