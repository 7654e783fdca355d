/// Identifiers as they go into the log: a Google Play purchase token (a purchase's id when
/// Google gives no order id) is a bearer of the purchase and long; only its start is logged.
enum LoggedIdentifier {
    /// The longest identifier logged whole.
    static let longest = 64

    /// `identifier` whole when at most ``longest`` characters, else its first 12 and `…`.
    static func text(_ identifier: String) -> String {
        identifier.count <= longest ? identifier : identifier.prefix(12) + "…"
    }
}
