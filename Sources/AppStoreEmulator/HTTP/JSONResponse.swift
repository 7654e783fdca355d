import Foundation
import Hummingbird

/// JSON bodies in and out of the emulator's HTTP endpoints.
enum JSONResponse {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339Date.format(date))
        }
        return encoder
    }()

    /// A response whose body is `value` as JSON, with `X-Content-Type-Options: nosniff`.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json", .xContentTypeOptions: "nosniff"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The emulator's own error shape: `{"error": code, "message": …}`.
    static func error(_ error: EmulatorError) -> Response {
        make(["error": error.code, "message": error.message], status: HTTPResponse.Status(code: error.status))
    }

    /// Apple's Server API error shape: `{"errorCode": …, "errorMessage": …}`.
    static func apiError(_ error: APIError) -> Response {
        make(error.body, status: HTTPResponse.Status(code: error.status))
    }

    /// Reads the request body (at most `limit` bytes).
    static func body(of request: Request, limit: Int) async throws(EmulatorError) -> Data {
        var request = request
        do {
            return Data(try await request.collectBody(upTo: limit).readableBytesView)
        } catch {
            throw EmulatorError("body_too_large", "the request body exceeds \(limit) bytes", status: 413)
        }
    }

    /// Decodes the request body as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = 1 << 20)
        async throws(EmulatorError) -> T
    {
        try decode(T.self, from: try await body(of: request, limit: limit))
    }

    /// Decodes `data`, a request body, as `T`; `malformed_body` (400) when it is not one.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(EmulatorError) -> T {
        do {
            return try JSONDecoder.iso8601.decode(T.self, from: data)
        } catch {
            throw EmulatorError("malformed_body", "the body is not a valid \(T.self): \(error)")
        }
    }
}

extension JSONDecoder {
    /// A decoder that reads dates as strict RFC 3339 date-times (`2026-11-22T10:00:00Z`),
    /// with or without fractional seconds, in UTC or with an offset (see ``RFC3339Date``).
    static let iso8601: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339Date.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "not an RFC 3339 date-time: \(text)")
            }
            return date
        }
        return decoder
    }()
}
