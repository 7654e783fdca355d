import Foundation

/// An HTTP response as an ``HTTPTransport`` returns it: status, header fields and the
/// whole body.
public struct HTTPResponseData: Hashable, Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The header fields, by name; repeated fields are joined with `, `. Look names up
    /// with ``headerValue(_:)``, which ignores case.
    public var headers: [String: String]
    /// The body; empty when there is none.
    public var body: Data

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: the status code.
    ///   - headers: the header fields.
    ///   - body: the body.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a header field, its name compared without regard to case.
    ///
    /// - Parameter name: the field name, e.g. `retry-after`.
    /// - Returns: The value, or `nil` when the field is absent.
    public func headerValue(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
