/// Sends one HTTP request and returns the whole response.
///
/// The API clients speak to Apple only through a transport: ``AsyncHTTPClientTransport``
/// over the network; ``ClosureHTTPTransport`` (or any conforming type) for tests and for
/// an in-process emulator.
public protocol HTTPTransport: Sendable {
    /// Sends a request.
    ///
    /// - Parameter request: the request.
    /// - Returns: The response, whatever its status.
    /// - Throws: When no response was received (connection, TLS, timeout, …).
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData
}
