import Foundation

/// The one rule for identifiers: player ids, order and transaction ids, product ids, item
/// names and every other id that is stored, looked up or compared.
///
/// Swift compares strings by canonical equivalence (`"josé"` written with U+00E9 equals
/// `"jose"` + U+0301); SQLite and PostgreSQL compare bytes. So an identifier is accepted only
/// when it already has the one form in which both agree, and is refused otherwise, never
/// rewritten (a rewritten copy would be a second name for one owner):
///
/// - 1 to `maximumLength` Unicode scalars;
/// - no control character, no formatting character (zero-width spaces and joiners,
///   bidirectional controls, the byte order mark), no other default-ignorable (invisible)
///   character, no white space, no private-use, unassigned or noncharacter code point;
/// - in Unicode Normalization Form KC: no canonical variant (`e` + U+0301 for `é`, the
///   Angstrom sign U+212B for `Å`) and no compatibility variant (fullwidth `ｂｏｂ`, the
///   ligature `ﬁ`), so that identifiers that render alike are byte-identical or refused.
///
/// Two identifiers this rule accepts are equal in Swift exactly when their UTF-8 bytes are
/// equal, which is how both databases compare them. Case is kept and significant
/// everywhere: `Bob` and `bob` are two identifiers, in Swift and in both databases.
public enum IdentifierRule {
    /// Why `identifier` is not an identifier, or `nil` when it is one.
    public static func problem(with identifier: String, maximumLength: Int) -> IdentifierProblem? {
        let scalars = identifier.unicodeScalars
        guard !scalars.isEmpty else { return .empty }
        var count = 0
        var ascii = true
        for scalar in scalars {
            count += 1
            if let kind = ForbiddenCharacter(scalar) { return .forbiddenCharacter(scalar.value, kind) }
            if !scalar.isASCII { ascii = false }
        }
        guard count <= maximumLength else { return .tooLong(maximum: maximumLength) }
        // Printable ASCII has no decomposition: it is its own NFKC form.
        if ascii { return nil }
        let normalized = identifier.precomposedStringWithCompatibilityMapping
        return normalized.utf8.elementsEqual(identifier.utf8) ? nil : .notNormalized
    }
}

/// Why a string is not an identifier (``IdentifierRule``). Its description names the
/// offending code point (`U+200B`), never the text itself, so it can be shown and logged.
public enum IdentifierProblem: Hashable, Sendable, CustomStringConvertible {
    /// No characters at all.
    case empty
    /// More than `maximum` Unicode scalars.
    case tooLong(maximum: Int)
    /// A code point an identifier may not hold.
    case forbiddenCharacter(UInt32, ForbiddenCharacter)
    /// Not in Normalization Form KC: a canonical or compatibility variant of other text.
    case notNormalized

    /// For a person: what is wrong and what to send instead.
    public var description: String {
        switch self {
        case .empty: "it is empty"
        case .tooLong(let maximum): "it is longer than \(maximum) characters"
        case .forbiddenCharacter(let value, let kind):
            "it contains \(String(format: "U+%04X", value)), \(kind)"
        case .notNormalized:
            "it is not in Unicode normalization form NFKC (a combining-accent, fullwidth or other variant "
                + "spelling of characters that have one standard form); send the NFKC form"
        }
    }
}

/// The kinds of code point ``IdentifierRule`` refuses.
public enum ForbiddenCharacter: String, Hashable, Sendable, CustomStringConvertible {
    /// C0 and C1 controls, DEL: newlines and terminal escapes among them.
    case control = "a control character"
    /// Invisible formatting: zero-width spaces and joiners, bidirectional controls, the BOM,
    /// variation selectors and the other default-ignorable code points.
    case invisible = "an invisible formatting character (zero-width, bidirectional or other)"
    /// Spaces and line or paragraph separators of every width.
    case whiteSpace = "a white-space character"
    /// Private-use, unassigned and noncharacter code points: nothing anyone can read.
    case unassigned = "a private-use, unassigned or noncharacter code point"

    /// The kind of `scalar` when an identifier may not hold it; `nil` when it may.
    init?(_ scalar: Unicode.Scalar) {
        if scalar.value > 0x20 && scalar.value < 0x7F { return nil }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control: self = .control
        case .format: self = .invisible
        case .spaceSeparator, .lineSeparator, .paragraphSeparator: self = .whiteSpace
        case .privateUse, .unassigned, .surrogate: self = .unassigned
        default:
            if properties.isWhitespace {
                self = .whiteSpace
            } else if properties.isDefaultIgnorableCodePoint {
                self = .invisible
            } else if properties.isNoncharacterCodePoint {
                self = .unassigned
            } else {
                return nil
            }
        }
    }

    /// The phrase used in ``IdentifierProblem/description``.
    public var description: String { rawValue }
}
