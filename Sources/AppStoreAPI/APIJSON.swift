import Foundation

/// The JSON coders of the API clients.
enum APIJSON {
    /// Encodes request bodies: sorted keys, unescaped slashes, absent optionals left out.
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Decodes response bodies; unknown fields are ignored.
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try JSONDecoder().decode(type, from: data)
    }

    /// At most the first 512 bytes of a body as text, for error messages.
    static func excerpt(_ body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        let text = String(decoding: body.prefix(512), as: UTF8.self)
        return body.count > 512 ? text + "…" : text
    }
}
