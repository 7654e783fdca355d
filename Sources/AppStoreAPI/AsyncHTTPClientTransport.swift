import AsyncHTTPClient
import Foundation

/// A transport over the network with AsyncHTTPClient.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The client requests go through; ``HTTPClient/shared`` by default.
    public let client: HTTPClient
    /// How long one request may take, from sending to the last byte of the body.
    public let timeout: TimeInterval
    /// The largest response body accepted, in bytes.
    public let maximumResponseBytes: Int

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - client: the HTTP client; the process-wide shared one by default. A caller who
    ///     passes its own client shuts it down.
    ///   - timeout: the per-request timeout in seconds; 30 by default. A negative one
    ///     counts as zero.
    ///   - maximumResponseBytes: the largest body accepted; 16 MiB by default.
    public init(client: HTTPClient = .shared, timeout: TimeInterval = 30, maximumResponseBytes: Int = 16 << 20) {
        self.client = client
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// Sends a request and collects the whole response body.
    ///
    /// - Parameter request: the request.
    /// - Returns: The response.
    /// - Throws: ``InvalidTimeoutError`` when ``timeout`` is NaN or longer than a deadline
    ///   holds (nothing is sent); AsyncHTTPClient's error when the request fails or times
    ///   out, or the body exceeds ``maximumResponseBytes``.
    public func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        var outbound = HTTPClientRequest(url: request.url.absoluteString)
        outbound.method = .init(rawValue: request.method.rawValue)
        for (name, value) in request.headers {
            outbound.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outbound.body = .bytes(body)
        }
        guard let nanoseconds = Int64(exactly: (max(timeout, 0) * 1e9).rounded()) else {
            throw InvalidTimeoutError(timeout: timeout)
        }
        let response = try await client.execute(outbound, timeout: .nanoseconds(nanoseconds))
        let buffer = try await response.body.collect(upTo: maximumResponseBytes)
        var headers: [String: String] = [:]
        for (name, value) in response.headers {
            if let existing = headers[name] {
                headers[name] = existing + ", " + value
            } else {
                headers[name] = value
            }
        }
        return HTTPResponseData(
            status: Int(response.status.code), headers: headers, body: Data(buffer.readableBytesView))
    }
}
