import Foundation
import Hummingbird
import PlayModel

/// JSON answers of the Play side.
enum PlayJSON {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as a JSON body with `status`.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=UTF-8", .xContentTypeOptions: "nosniff"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Google's error envelope, with its code as the status; a 401 also carries
    /// `WWW-Authenticate: Bearer` as Google's does.
    static func google(_ error: GoogleErrorResponse) -> Response {
        var response = make(error, status: HTTPResponse.Status(code: error.error.code))
        if error.error.code == 401 {
            response.headers[.wwwAuthenticate] = #"Bearer realm="https://accounts.google.com/""#
        }
        return response
    }

    /// The emulator's own shape, `{"error": code, "message": …}`.
    static func emulator(_ error: PlayEmulatorError) -> Response {
        make(["error": error.code, "message": error.message], status: HTTPResponse.Status(code: error.status))
    }

    /// An empty answer: what Google's methods without a response body answer.
    static func noContent() -> Response {
        Response(status: .noContent)
    }

    /// The request's body, at most `limit` bytes.
    static func body(of request: Request, limit: Int = 1 << 16) async -> Data? {
        var request = request
        return try? await Data(request.collectBody(upTo: limit).readableBytesView)
    }

    /// `http://host[:port]` as the request reached the server (its authority: HTTP/1.1's `Host` header).
    static func base(of request: Request) -> String {
        "http://" + (request.head.authority ?? "127.0.0.1")
    }
}
