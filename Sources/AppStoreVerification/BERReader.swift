/// A lean reader of BER and DER (X.690): it walks the tag-length-value elements of a
/// buffer without building a tree, so that a caller reads the few fields it needs and
/// steps over the rest (certificates, algorithm parameters) by their length.
///
/// Elements are located by offsets into the buffer; nothing is copied. Definite lengths
/// (short and long form, non-minimal forms allowed as BER allows them) and indefinite
/// lengths are read. The end of an indefinite-length element is found by walking its
/// children down to its end-of-contents octets. Every length is checked against the
/// bytes that remain, and nesting deeper than ``maximumDepth`` is refused, so no input
/// can trap, read outside the buffer or exhaust the stack.
///
/// Every failure is a ``VerificationError`` with the code the reader was created with:
/// `malformed_container` for the PKCS#7 container, `malformed_payload` for the receipt
/// attributes.
struct BERReader {
    /// One element: its identifier and where its encoding and contents lie.
    struct Element {
        /// The first identifier octet: class, constructed bit and tag number (`0x1F` in
        /// the low bits for a high tag number, whose further octets are stepped over).
        let identifier: UInt8
        /// The offsets of the whole encoding, end-of-contents octets included.
        let encoding: Range<Int>
        /// The offsets of the contents, end-of-contents octets excluded.
        let contents: Range<Int>

        /// Whether the element is constructed (holds elements rather than bytes).
        var isConstructed: Bool { identifier & 0x20 != 0 }
    }

    /// Identifier octets of the universal and context-specific tags receipts use.
    enum Tag {
        static let integer: UInt8 = 0x02
        static let octetString: UInt8 = 0x04
        static let constructedOctetString: UInt8 = 0x24
        static let objectIdentifier: UInt8 = 0x06
        static let sequence: UInt8 = 0x30
        static let set: UInt8 = 0x31
        static let contextConstructed0: UInt8 = 0xA0

        /// Whether `identifier` is the context-specific tag `[number]`, in either form.
        static func isContext(_ identifier: UInt8, _ number: UInt8) -> Bool {
            identifier & 0xDF == (0x80 | number)
        }
    }

    /// The deepest nesting read: far more than PKCS#7 receipts use (about eight levels).
    static let maximumDepth = 24

    /// The buffer; element offsets are indices into it.
    let bytes: ArraySlice<UInt8>
    /// The code of every error thrown.
    private let code: VerificationError.Code
    private var position: Int
    private var end: Int
    private var depth: Int

    /// A reader of the elements that fill `bytes`.
    init(_ bytes: ArraySlice<UInt8>, code: VerificationError.Code) {
        self.init(bytes, code: code, range: bytes.startIndex..<bytes.endIndex, depth: 0)
    }

    private init(_ bytes: ArraySlice<UInt8>, code: VerificationError.Code, range: Range<Int>, depth: Int) {
        self.bytes = bytes
        self.code = code
        self.position = range.lowerBound
        self.end = range.upperBound
        self.depth = depth
    }

    /// Whether every element has been read.
    var isAtEnd: Bool { position == end }

    /// The identifier octet of the next element, without reading it; `nil` at the end.
    var nextIdentifier: UInt8? { position < end ? bytes[position] : nil }

    /// Reads the next element, whatever it is.
    mutating func read(_ what: String) throws(VerificationError) -> Element {
        let start = position
        guard position < end else { throw failure("\(what) is missing") }
        let identifier = bytes[position]
        position += 1
        if identifier & 0x1F == 0x1F {
            try skipHighTagNumber(what)
        } else if identifier & 0xDF == 0 {
            throw failure("\(what): unexpected end-of-contents octets")
        }
        guard position < end else { throw failure("\(what) is truncated") }
        let lengthOctet = bytes[position]
        position += 1
        if lengthOctet == 0x80 {
            guard identifier & 0x20 != 0 else {
                throw failure("\(what) has an indefinite length but is not constructed")
            }
            let contentsEnd = try endOfContents(from: position, what)
            let contents = position..<contentsEnd
            position = contentsEnd + 2
            return Element(identifier: identifier, encoding: start..<position, contents: contents)
        }
        let length = try definiteLength(lengthOctet, what)
        guard length <= end - position else { throw failure("\(what) is truncated") }
        let contents = position..<(position + length)
        position = contents.upperBound
        return Element(identifier: identifier, encoding: start..<position, contents: contents)
    }

    /// Reads the next element and requires its identifier octet to be `identifier`.
    mutating func read(_ identifier: UInt8, _ what: String) throws(VerificationError) -> Element {
        let element = try read(what)
        guard element.identifier == identifier else {
            throw failure("\(what): expected tag \(Self.hex(identifier)), found \(Self.hex(element.identifier))")
        }
        return element
    }

    /// Requires that every element has been read.
    func requireEnd(_ what: String) throws(VerificationError) {
        guard isAtEnd else { throw failure("\(what) has unexpected fields") }
    }

    /// Where a reader was before it entered an element (see ``enter(_:_:)``).
    struct Exit {
        fileprivate let resume: Int
        fileprivate let end: Int
        fileprivate let depth: Int
    }

    /// Moves the reader into the constructed `element` just read: it then reads the
    /// elements inside it, until ``leave(_:)`` resumes after it. Unlike
    /// ``children(of:_:)``, this copies nothing.
    mutating func enter(_ element: Element, _ what: String) throws(VerificationError) -> Exit {
        guard element.isConstructed else { throw failure("\(what) is not constructed") }
        guard depth < Self.maximumDepth else { throw failure("\(what) is nested too deeply") }
        let exit = Exit(resume: element.encoding.upperBound, end: end, depth: depth)
        position = element.contents.lowerBound
        end = element.contents.upperBound
        depth += 1
        return exit
    }

    /// Leaves the element entered with `exit` and continues after it.
    mutating func leave(_ exit: Exit) {
        position = exit.resume
        end = exit.end
        depth = exit.depth
    }

    /// A reader of the elements inside the constructed `element`.
    func children(of element: Element, _ what: String) throws(VerificationError) -> BERReader {
        guard element.isConstructed else { throw failure("\(what) is not constructed") }
        guard depth < Self.maximumDepth else { throw failure("\(what) is nested too deeply") }
        return BERReader(bytes, code: code, range: element.contents, depth: depth + 1)
    }

    /// The bytes of an OCTET STRING: its contents when primitive, the concatenation of
    /// its segments (each an OCTET STRING, primitive or constructed) when constructed.
    func octetString(_ element: Element, _ what: String) throws(VerificationError) -> ArraySlice<UInt8> {
        switch element.identifier {
        case Tag.octetString:
            return bytes[element.contents]
        case Tag.constructedOctetString:
            var flattened: [UInt8] = []
            try appendSegments(of: element, to: &flattened, what)
            return flattened[...]
        default:
            throw failure("\(what) is not an OCTET STRING")
        }
    }

    /// Whether `element` is the object identifier whose contents octets are `oid`
    /// (X.690 encodes each object identifier one way only, so bytes compare).
    func matches(_ element: Element, oid: [UInt8]) -> Bool {
        element.identifier == Tag.objectIdentifier && bytes[element.contents].elementsEqual(oid)
    }

    /// An error with the reader's code.
    private func failure(_ message: String) -> VerificationError {
        VerificationError(code, message)
    }

    private func appendSegments(
        of element: Element, to flattened: inout [UInt8], _ what: String
    ) throws(VerificationError) {
        var segments = try children(of: element, what)
        while !segments.isAtEnd {
            let segment = try segments.read(what)
            switch segment.identifier {
            case Tag.octetString: flattened.append(contentsOf: bytes[segment.contents])
            case Tag.constructedOctetString: try segments.appendSegments(of: segment, to: &flattened, what)
            default: throw failure("\(what): a segment is not an OCTET STRING")
            }
        }
    }

    /// Steps over the octets of a high tag number (base 128, bit 8 set on all but the last).
    private mutating func skipHighTagNumber(_ what: String) throws(VerificationError) {
        for _ in 0..<4 {
            guard position < end else { throw failure("\(what) is truncated") }
            let octet = bytes[position]
            position += 1
            if octet & 0x80 == 0 { return }
        }
        throw failure("\(what) has a tag number too large")
    }

    /// The length a definite length octet (and the octets after it) give.
    private mutating func definiteLength(_ first: UInt8, _ what: String) throws(VerificationError) -> Int {
        guard first & 0x80 != 0 else { return Int(first) }
        let count = Int(first & 0x7F)
        guard count <= 8 else { throw failure("\(what) has an invalid length") }
        guard count <= end - position else { throw failure("\(what) is truncated") }
        var length = 0
        for _ in 0..<count {
            guard length >> 48 == 0 else { throw failure("\(what) has an excessive length") }
            length = length << 8 | Int(bytes[position])
            position += 1
        }
        return length
    }

    /// The offset of the end-of-contents octets closing the indefinite-length contents
    /// that start at `start`, found by reading the elements before them.
    private func endOfContents(from start: Int, _ what: String) throws(VerificationError) -> Int {
        guard depth < Self.maximumDepth else { throw failure("\(what) is nested too deeply") }
        var inner = BERReader(bytes, code: code, range: start..<end, depth: depth + 1)
        while true {
            guard inner.position < end else { throw failure("\(what) lacks its end-of-contents octets") }
            if bytes[inner.position] == 0 {
                guard end - inner.position >= 2, bytes[inner.position + 1] == 0 else {
                    throw failure("\(what) has malformed end-of-contents octets")
                }
                return inner.position
            }
            _ = try inner.read(what)
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        "0x" + String(byte, radix: 16, uppercase: true)
    }
}
