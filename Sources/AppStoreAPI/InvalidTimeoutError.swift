import Foundation

/// ``AsyncHTTPClientTransport`` sent nothing: its ``AsyncHTTPClientTransport/timeout`` is
/// not a wait a request deadline can hold (NaN, or longer than `Int64.max` nanoseconds,
/// about 292 years).
public struct InvalidTimeoutError: Error, Sendable, CustomStringConvertible {
    /// The timeout, in seconds.
    public var timeout: TimeInterval

    /// Creates the error for `timeout`.
    public init(timeout: TimeInterval) {
        self.timeout = timeout
    }

    /// Names the timeout and the range it must be in.
    public var description: String {
        "timeout \(timeout) s is not a request timeout: it must be from 0 to \(Double(Int64.max) / 1e9) s"
    }
}
