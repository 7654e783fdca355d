import Foundation

/// One HTTP request.
public struct NetworkRequest: Sendable {
    /// `GET`, `POST`, …
    public var method: String
    /// Where.
    public var url: URL
    /// Header fields.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response.
public struct NetworkResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The body.
    public var body: Data
    /// Header fields (any case; ``header(_:)`` finds one whatever its case).
    public var headers: [String: String]

    /// Creates a response.
    public init(status: Int, body: Data, headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    /// The value of header field `name`, compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The `Retry-After` wait, when the field holds a number of seconds (0 to a day; an
    /// HTTP date or anything else is ignored, and the client's own backoff applies).
    public var retryAfter: Duration? {
        guard let text = header("Retry-After")?.trimmingCharacters(in: .whitespaces),
            let seconds = Int(text), (0...86_400).contains(seconds)
        else { return nil }
        return .seconds(seconds)
    }
}

/// Sends HTTP requests: ``URLSessionTransport`` in apps, a wrapper that injects faults in tests.
public protocol NetworkTransport: Sendable {
    /// Sends `request`; throws when no response arrived (refused, timed out, offline).
    func send(_ request: NetworkRequest) async throws -> NetworkResponse
}
