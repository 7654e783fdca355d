/// Checks of outside text before it reaches the ledger or the audit log: no id, name or
/// query of the console has control characters, and PostgreSQL's text cannot hold NUL at
/// all (a query with one fails), so such text is refused, or made printable where it is
/// only recorded.
enum ConsoleText {
    /// Whether `text` has a control character (Unicode category Cc: C0 controls, DEL, C1
    /// controls) other than those in `allowed` (e.g. line breaks in a reason).
    static func hasControlCharacters(_ text: String, allowing allowed: Set<Unicode.Scalar> = []) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control && !allowed.contains($0) }
    }

    /// `text` with every control character replaced by U+FFFD, for the audit log and the
    /// ledger's queries.
    static func printable(_ text: String) -> String {
        guard hasControlCharacters(text) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(scalar.properties.generalCategory == .control ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }
}
