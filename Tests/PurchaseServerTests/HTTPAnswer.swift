import Foundation

/// An HTTP response as the tests read it.
struct HTTPAnswer: Sendable, CustomStringConvertible {
    var status: Int
    var body: Data
    /// The response headers, names lowercased (the last value of a repeated header).
    var headers: [String: String] = [:]

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: body)
    }

    /// The JSON body's `error` (error answers) or `reason` (purchase refusals).
    var code: String? {
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        return (object?["error"] as? String) ?? (object?["reason"] as? String)
    }

    var description: String { "HTTP \(status) \(String(decoding: body.prefix(400), as: UTF8.self))" }
}

/// `POST /v1/orders`'s answer, as a client reads it.
struct OrderReply: Decodable, Sendable {
    var orderId: String
    var appAccountToken: String
    var productId: String
    var expiresAt: Date
}

/// `POST /v1/purchases`'s answer, as a client reads it.
struct PurchaseReply: Decodable, Sendable, Equatable {
    var status: String
    var reason: String?
    var transactionId: String?
    var orderId: String?
    var grants: [String: Int64]
    var balances: [String: Int64]
    var flags: [String]
}

/// The HTTP methods the tests send.
enum RequestMethod: String, Sendable {
    case get, post, put, delete, patch, trace
}

/// Unpadded base64url, as in JWS.
func base64URLEncode(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

/// Decodes unpadded base64url.
func base64URLDecode(_ text: String) throws -> Data {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64) else { throw FixtureError("not base64url: \(text.prefix(20))") }
    return data
}
