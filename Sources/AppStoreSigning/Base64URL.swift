import Foundation

extension Data {
    /// The base64url encoding without padding (RFC 7515 §2), as JWS uses it.
    var base64URLEncodedString: String {
        var text = base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-")
        text = text.replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") {
            text.removeLast()
        }
        return text
    }
}
