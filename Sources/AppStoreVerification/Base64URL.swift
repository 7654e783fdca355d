import Foundation

enum Base64URL {
    /// Decodes unpadded (or padded) base64url text; `nil` when it is not base64url.
    static func decode<S: StringProtocol>(_ text: S) -> Data? {
        var base64 = String(text)
        guard !base64.contains(where: { $0 == "+" || $0 == "/" }) else { return nil }
        base64 = base64.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = base64.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }
}
