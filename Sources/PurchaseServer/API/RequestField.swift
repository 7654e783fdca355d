/// Bounds on the text a client sends, checked before anything is stored or passed on.
enum RequestField {
    /// The longest player id, in UTF-8 bytes (a player token's `sub` has the same bound).
    static let maximumPlayerIdBytes = 256

    /// Checks that `text`, when present, is `bytes` UTF-8 bytes long; `invalid_request`
    /// naming `field` otherwise.
    static func check(_ text: String?, _ field: String, bytes: ClosedRange<Int>) throws(ServerError) {
        guard let text else { return }
        let count = text.utf8.count
        guard bytes.contains(count) else {
            throw .invalidRequest("\(field) must be \(bytes.lowerBound) to \(bytes.upperBound) bytes, not \(count)")
        }
    }
}
