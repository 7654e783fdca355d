import Foundation
import Hummingbird

/// JSON in and out of the HTTP API: one encoder (sorted keys, ISO 8601 dates) and a body
/// reader that enforces the size and time limits and turns bad JSON into `invalid_request`.
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

    /// The request body, at most `limit.bytes` bytes, arrived whole within `limit.seconds`
    /// (a client that sends its body in slow pieces holds a place among the requests in
    /// flight that long at most).
    static func body(of request: Request, limit: BodyLimit) async throws(ServerError) -> Data {
        do {
            let collected = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask {
                    var request = request
                    return try await request.collectBody(upTo: limit.bytes)
                }
                group.addTask {
                    try await Task.sleep(for: limit.timeout)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let collected else { throw ServerError.bodyTimeout(seconds: limit.seconds) }
            return Data(collected.readableBytesView)
        } catch let error as ServerError {
            throw error
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw .bodyTooLarge(limit: limit.bytes)
        } catch {
            throw .invalidRequest("the request body could not be read")
        }
    }

    /// The request body decoded as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: BodyLimit) async throws(ServerError)
        -> T
    {
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
