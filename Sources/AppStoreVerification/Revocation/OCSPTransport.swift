import Foundation

/// Carries an OCSP request to a responder over HTTP (RFC 6960 appendix A.1): a `POST`
/// of the DER request with `Content-Type: application/ocsp-request`.
///
/// The module makes no HTTP connections itself; the server supplies an implementation
/// over its HTTP client and tests an in-memory one. An implementation applies its own
/// timeout and throws when no answer arrives.
public protocol OCSPTransport: Sendable {
    /// Posts `request` to `url` and returns the responder's HTTP answer.
    func post(_ request: [UInt8], to url: URL) async throws -> OCSPTransportResponse
}

/// A responder's HTTP answer.
public struct OCSPTransportResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The body: a DER `OCSPResponse` when the status is 200.
    public var body: [UInt8]

    /// Creates an answer from its parts.
    public init(statusCode: Int, body: [UInt8]) {
        self.statusCode = statusCode
        self.body = body
    }
}
