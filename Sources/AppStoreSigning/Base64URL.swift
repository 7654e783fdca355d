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
