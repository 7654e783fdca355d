import Foundation

/// The JSON text of everything the ABI hands out: objects with sorted keys, dates in
/// ISO 8601, slashes unescaped.
enum ABIJSON {
    /// A call's answer: `{"id": N, "result": {...}}`.
    struct Answer<Result: Encodable>: Encodable {
        var id: Int64
        var result: Result
    }

    /// A call's error: `{"id": N, "error": {"code": "...", "message": "..."}}`.
    struct Failure: Encodable {
        var id: Int64
        var error: ABIError
    }

    /// An update nobody asked for: `{"event": "...", <payload's name>: {...}}`.
    struct PurchaseEvent: Encodable {
        var event = "purchase"
        var purchase: PurchaseJSON
    }

    /// The player's entitlements changed: `{"event": "entitlementsChanged", "entitlements":
    /// {...}}`, the entitlements as the `entitlements` call answers them.
    struct EntitlementsChangedEvent: Encodable {
        var event = "entitlementsChanged"
        var entitlements: EntitlementsJSON
    }

    /// An empty result, `{}`.
    struct Empty: Encodable {}

    /// The JSON text of `value`.
    static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            return #"{"error":{"code":"internal","message":"an answer could not be encoded"}}"#
        }
    }

    /// Decodes `params` (a JSON object's bytes) as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from params: Data) throws -> T {
        try JSONDecoder().decode(type, from: params)
    }
}
