import Foundation
import Hummingbird

/// JSON in and out of the HTTP API: one encoder (sorted keys, ISO 8601 dates) and a body
/// reader that enforces the size limit and turns bad JSON into `invalid_request`.
enum APIResponse {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder = JSONDecoder()

    /// A response whose body is `value` as JSON, with `X-Content-Type-Options: nosniff` (no
    /// browser reads it as anything but JSON, whatever text a field holds).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":"internal_error","message":"encoding failed"}"#.utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json", .xContentTypeOptions: "nosniff"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The request body, at most `limit` bytes.
    static func body(of request: Request, limit: Int) async throws(ServerError) -> Data {
        var request = request
        do {
            return Data(try await request.collectBody(upTo: limit).readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw .bodyTooLarge(limit: limit)
        } catch {
            throw .invalidRequest("the request body could not be read")
        }
    }

    /// The request body decoded as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws(ServerError) -> T {
        let data = try await body(of: request, limit: limit)
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw .invalidRequest("the body is not a valid \(T.self): \(Self.describe(error, in: data))")
        }
    }

    /// A short account of a decoding error (no input echoed back).
    private static func describe(_ error: any Error, in data: Data) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing field \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            "bad value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default:
            // Foundation's decoder on Linux reports a number it cannot represent (beyond 64
            // bits, or a fraction for a whole number) as invalid JSON, without its path.
            (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil
                ? "not JSON"
                : "a number is out of range for its field (whole numbers fit in 64 bits) or a value has the wrong type"
        }
    }
}
