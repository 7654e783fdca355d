import Foundation

/// A Boolean that verifyReceipt sends as a JSON string, such as
/// `"is_trial_period": "false"`.
///
/// Decodes from a JSON string (kept exactly), a JSON Boolean or a JSON number, and always
/// encodes as a JSON string. ``init(_:)`` writes `"true"` or `"false"`, as Apple does for
/// `is_trial_period` and `is_in_intro_offer_period`.
public struct StringBool: Hashable, Codable, Sendable, CustomStringConvertible,
    ExpressibleByBooleanLiteral
{
    /// The flag exactly as Apple wrote it, e.g. `"false"`.
    public var stringValue: String

    /// Creates a value from Apple's text, kept unchanged.
    public init(stringValue: String) { self.stringValue = stringValue }

    /// Creates a value written `"true"` or `"false"`.
    public init(_ value: Bool) { stringValue = value ? "true" : "false" }

    /// Creates a value from a Boolean literal, written `"true"` or `"false"`.
    public init(booleanLiteral value: Bool) { self.init(value) }

    /// The flag: `true` for `"true"` or `"1"`, `false` for `"false"` or `"0"` (case
    /// insensitive), `nil` for anything else.
    public var boolValue: Bool? {
        switch stringValue.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "1": true
        case "false", "0": false
        default: nil
        }
    }

    /// Decodes a JSON string unchanged, a JSON Boolean as `"true"`/`"false"`, or a JSON
    /// integer in decimal.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            stringValue = text
        } else if let flag = try? container.decode(Bool.self) {
            stringValue = flag ? "true" : "false"
        } else {
            stringValue = String(try container.decode(Int64.self))
        }
    }

    /// Encodes the text as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }

    /// The flag exactly as Apple wrote it.
    public var description: String { stringValue }
}
