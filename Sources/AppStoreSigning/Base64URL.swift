import Foundation

extension Data {
    /// The base64url encoding without padding (RFC 7515 §2), as JWS uses it.
    public var base64URLEncodedString: String {
        var bytes = [UInt8](base64EncodedData())
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "+"): bytes[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): bytes[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Data {
    /// Decodes unpadded base64url (RFC 7515 §2), as JWS and JWK carry bytes; `nil` when
    /// `text` is not base64url: padding, whitespace and the standard alphabet's `+` and `/`
    /// are refused.
    public init?(base64URLEncoded text: String) {
        var bytes = [UInt8](text.utf8)
        guard bytes.count % 4 != 1 else { return nil }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "-"): bytes[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): bytes[index] = UInt8(ascii: "/")
            case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): return nil
            default: break
            }
        }
        bytes += [UInt8](repeating: UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4)
        self.init(base64Encoded: Data(bytes))
    }
}
