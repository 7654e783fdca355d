/// Bounds on the text a client sends, checked before anything is stored or passed on.
///
/// Lengths count Unicode scalars (code points), as JSON Schema's `minLength`/`maxLength`
/// in docs/openapi.yaml do, so a string the document allows is never refused for its
/// length; a bound of n characters stores at most 4n bytes.
enum RequestField {
    /// The longest player id, in characters.
    static let maximumPlayerIdLength = 256

    /// Checks that `text`, when present, is `length` characters long; `invalid_request`
    /// naming `field` otherwise.
    static func check(_ text: String?, _ field: String, length: ClosedRange<Int>) throws(ServerError) {
        guard let text else { return }
        let count = text.unicodeScalars.count
        guard length.contains(count) else {
            throw .invalidRequest(
                "\(field) must be \(length.lowerBound) to \(length.upperBound) characters, not \(count)")
        }
    }
}
