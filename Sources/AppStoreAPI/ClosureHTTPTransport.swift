/// A transport that hands each request to a closure: for tests and for plugging an
/// in-process emulator into the API clients.
public struct ClosureHTTPTransport: HTTPTransport {
    private let handler: @Sendable (HTTPRequestData) async throws -> HTTPResponseData

    /// Creates a transport around a handler.
    ///
    /// - Parameter handler: answers each request, or throws to simulate a transport
    ///   failure.
    public init(_ handler: @escaping @Sendable (HTTPRequestData) async throws -> HTTPResponseData) {
        self.handler = handler
    }

    /// Sends a request to the handler.
    ///
    /// - Parameter request: the request.
    /// - Returns: The handler's response.
    /// - Throws: What the handler throws.
    public func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        try await handler(request)
    }
}
