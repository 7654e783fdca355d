/// One `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
struct ReceiptAttribute {
    /// The attribute type (2: bundle id, 17: an in-app purchase, 1702: product id...).
    let type: Int
    /// The value's bytes: a DER value (string, integer, nested set) or raw bytes.
    let value: ArraySlice<UInt8>
}

/// The attributes of a receipt's (or an in-app purchase's) `SET OF ReceiptAttribute`,
/// read one at a time from the bytes, without building a node tree.
///
/// BER as well as DER is read, as the PKCS#7 container allows; every failure is a
/// ``VerificationError`` `malformed_payload`.
struct ReceiptAttributes {
    private typealias Tag = BERReader.Tag
    private var reader: BERReader

    /// Reads `bytes` as one SET of attributes; `what` names it in errors.
    init(_ bytes: ArraySlice<UInt8>, what: String) throws(VerificationError) {
        var outer = BERReader(bytes, code: .malformedPayload)
        let set = try outer.read("the attribute SET")
        guard set.identifier == Tag.set else {
            throw VerificationError(.malformedPayload, "the \(what) is not a SET of attributes")
        }
        try outer.requireEnd("the attribute SET")
        reader = try outer.children(of: set, "the attribute SET")
    }

    /// The next attribute; `nil` after the last.
    mutating func next() throws(VerificationError) -> ReceiptAttribute? {
        guard !reader.isAtEnd else { return nil }
        let sequence = try reader.read(Tag.sequence, "a receipt attribute")
        let exit = try reader.enter(sequence, "a receipt attribute")
        let typeElement = try reader.read(Tag.integer, "a receipt attribute's type")
        guard let type = DERPrimitive.integer(contents: reader.bytes[typeElement.contents]).flatMap(Int.init(exactly:))
        else {
            throw VerificationError(.malformedPayload, "a receipt attribute's type is not an integer")
        }
        _ = try reader.read("a receipt attribute's version")
        let value = try reader.octetString(
            try reader.read("a receipt attribute's value"), "a receipt attribute's value")
        try reader.requireEnd("a receipt attribute")
        reader.leave(exit)
        return ReceiptAttribute(type: type, value: value)
    }
}
