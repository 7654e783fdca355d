/// A value from a set that Apple defines and may extend at any time.
///
/// Apple documents many fields as "one of these strings" or "one of these integers" and
/// adds new values without notice. A Swift `enum` would fail to decode a value it does not
/// know; an open enumeration is instead a struct around Apple's raw value with a static
/// constant for each documented value. Unknown values decode unchanged and encode back
/// exactly as received.
///
/// A conforming type only declares its stored `rawValue`, `init(rawValue:)` and its
/// constants. This protocol supplies `Codable` (the raw value as a single JSON value),
/// `description`, and the string or integer literal initializers.
public protocol OpenEnumeration: RawRepresentable, Hashable, Codable, Sendable,
    CustomStringConvertible
where RawValue: Hashable & Codable & Sendable & CustomStringConvertible {
    /// Creates a value from Apple's raw value; never fails, whatever the value.
    init(rawValue: RawValue)
}

extension OpenEnumeration {
    /// Decodes Apple's raw value from a single JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(RawValue.self))
    }

    /// Encodes the raw value as a single JSON value, exactly as Apple sends it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Apple's raw value, as text.
    public var description: String { rawValue.description }
}

extension OpenEnumeration where RawValue == String {
    /// Creates a value from a string literal holding Apple's raw value.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
}

extension OpenEnumeration where RawValue == Int {
    /// Creates a value from an integer literal holding Apple's raw value.
    public init(integerLiteral value: Int) { self.init(rawValue: value) }

    /// Creates a value from a number that verifyReceipt sends as a string (e.g.
    /// `expiration_intent` `"1"`); `nil` when the field is absent or not an integer.
    public init?(_ number: StringNumber?) {
        guard let value = number?.intValue else { return nil }
        self.init(rawValue: value)
    }
}

extension AppStoreEnvironment: OpenEnumeration {}
