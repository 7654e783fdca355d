import Foundation

/// A number that verifyReceipt sends as a JSON string, such as `"quantity": "1"` or
/// `"purchase_date_ms": "1708683072000"`.
///
/// Decodes from a JSON string or a JSON number, keeps the text exactly, and always
/// encodes as a JSON string, as Apple does. Read it with ``int64Value`` or ``intValue``.
public struct StringNumber: Hashable, Codable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral, ExpressibleByStringLiteral
{
    /// The number exactly as Apple wrote it, e.g. `"1708683072000"`.
    public var stringValue: String

    /// Creates a value from Apple's text, kept unchanged even if it is not a number.
    public init(stringValue: String) { self.stringValue = stringValue }

    /// Creates a value holding an integer, written in decimal.
    public init<Integer: BinaryInteger>(_ value: Integer) { stringValue = String(value) }

    /// Creates a value from an integer literal.
    public init(integerLiteral value: Int64) { self.init(value) }

    /// Creates a value from a string literal, kept unchanged.
    public init(stringLiteral value: String) { stringValue = value }

    /// The value as a 64-bit integer; `nil` if the text is not a decimal integer.
    public var int64Value: Int64? {
        Int64(stringValue.trimmingCharacters(in: .whitespaces))
    }

    /// The value as an `Int`; `nil` if the text is not a decimal integer.
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// The value read as a flag, as in `is_in_billing_retry_period` (`"1"` or `"0"`):
    /// `true` for a non-zero integer or `"true"`, `false` for zero or `"false"`, `nil`
    /// for anything else.
    public var boolValue: Bool? {
        if let number = int64Value { return number != 0 }
        return StringBool(stringValue: stringValue).boolValue
    }

    /// Decodes a JSON string unchanged, or a JSON number written in decimal.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            stringValue = text
        } else if let integer = try? container.decode(Int64.self) {
            stringValue = String(integer)
        } else if let integer = try? container.decode(UInt64.self) {
            stringValue = String(integer)
        } else {
            let number = try container.decode(Double.self)
            if number.rounded() == number, let integer = Int64(exactly: number) {
                stringValue = String(integer)
            } else {
                stringValue = String(number)
            }
        }
    }

    /// Encodes the text as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }

    /// The number exactly as Apple wrote it.
    public var description: String { stringValue }
}
