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

    /// Creates a response.
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// Sends HTTP requests: ``URLSessionTransport`` in apps, a wrapper that injects faults in tests.
public protocol NetworkTransport: Sendable {
    /// Sends `request`; throws when no response arrived (refused, timed out, offline).
    func send(_ request: NetworkRequest) async throws -> NetworkResponse
}
