import Foundation

/// An HTTP request as the API clients hand it to an ``HTTPTransport``: plain values, so a
/// test or an in-process emulator can read it without a socket.
public struct HTTPRequestData: Hashable, Sendable {
    /// The method.
    public var method: HTTPRequestMethod
    /// The absolute URL, with its query.
    public var url: URL
    /// The header fields, by name. Look names up with ``headerValue(_:)``, which ignores
    /// case.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: the method.
    ///   - url: the absolute URL.
    ///   - headers: the header fields.
    ///   - body: the body.
    public init(method: HTTPRequestMethod, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of a header field, its name compared without regard to case.
    ///
    /// - Parameter name: the field name, e.g. `authorization`.
    /// - Returns: The value, or `nil` when the field is absent.
    public func headerValue(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
