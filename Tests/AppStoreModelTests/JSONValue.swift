import Foundation

/// A JSON document as a tree, to compare encoded output with expected JSON regardless of
/// key order, and to check whether a value went out as a string or a number.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses JSON text.
    init(_ text: String) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// Encodes `value` with `JSONEncoder` and parses the result.
    init(encoding value: some Encodable) throws {
        let data = try JSONEncoder().encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The member `key` of an object; `nil` for anything else or a missing key.
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The element at `index` of an array; `nil` for anything else or out of range.
    subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) {
            elements[index]
        } else {
            nil
        }
    }

    /// The same document without the members named `keys`, at any depth.
    func removing(_ keys: Set<String>) -> JSONValue {
        switch self {
        case .object(let members):
            .object(members.filter { !keys.contains($0.key) }.mapValues { $0.removing(keys) })
        case .array(let elements):
            .array(elements.map { $0.removing(keys) })
        default:
            self
        }
    }
}

/// Decodes `type` from JSON text.
func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONDecoder().decode(type, from: Data(json.utf8))
}

/// Encodes `value` and decodes it again.
func roundTrip<T: Codable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(value))
}
