extension LedgerJSON {
    /// A flat object of strings as JSON text, keys sorted by their UTF-8 bytes (as
    /// Foundation's encoder sorts them on Linux, and PostgreSQL's `COLLATE "C"`): the text
    /// ``text(_:)`` gives for it (Foundation's `JSONEncoder` with sorted keys and unescaped
    /// slashes), written directly, without the encoder's per-call machinery.
    static func text(_ object: [String: String]) -> String {
        var writer = Writer()
        writer.object(object.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) { writer, value in
            writer.string(value)
        }
        return writer.text
    }

    /// A flat object of integers (e.g. ``Grants``) as JSON text, keys sorted by their UTF-8 bytes;
    /// see ``text(_:)-(Dictionary<String,String>)``.
    static func text(_ object: [String: Int64]) -> String {
        var writer = Writer()
        writer.object(object.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) { writer, value in
            writer.integer(value)
        }
        return writer.text
    }

    /// Flags as a sorted JSON array of strings.
    static func flags(_ flags: Set<String>) -> String {
        var writer = Writer()
        writer.stringArray(flags.sorted())
        return writer.text
    }

    /// Appends JSON to a byte buffer, escaping strings as Foundation's encoder does.
    struct Writer {
        var bytes: [UInt8] = []
        /// Whether `/` is written `\/` (Foundation's default, without `.withoutEscapingSlashes`).
        var escapesSlashes = false

        init(escapesSlashes: Bool = false) {
            self.escapesSlashes = escapesSlashes
            bytes.reserveCapacity(256)
        }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        mutating func object<Value>(
            _ members: [(key: String, value: Value)], _ writeValue: (inout Writer, Value) -> Void
        ) {
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(member.key)
                bytes.append(UInt8(ascii: ":"))
                writeValue(&self, member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }

        /// An object of members written by their closures, keys sorted by their UTF-8 bytes.
        mutating func object(_ members: [(key: String, write: (inout Writer) -> Void)]) {
            object(
                members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
                    (key: $0.key, value: $0.write)
                }
            ) { writer, write in
                write(&writer)
            }
        }

        mutating func stringArray(_ values: [String]) {
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(value)
            }
            bytes.append(UInt8(ascii: "]"))
        }

        mutating func integer(_ value: Int64) {
            bytes.append(contentsOf: String(value).utf8)
        }

        mutating func string(_ value: String) {
            bytes.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "/") where escapesSlashes:
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
                case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0x00..<0x20:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [
                        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    ])
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
