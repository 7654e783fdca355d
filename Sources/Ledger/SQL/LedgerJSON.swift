import Foundation

/// The JSON text the ledger stores in its text columns (grants, flags, event details).
enum LedgerJSON {
    /// Encodes with sorted keys, so equal values have equal text.
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Decodes stored JSON text.
    static func decode<Value: Decodable>(_ type: Value.Type, from text: String, column: String) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw LedgerError.corruptRow("\(column) is not the expected JSON: \(error)")
        }
    }
}
