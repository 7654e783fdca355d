import AppStoreAPI
import AppStoreVerification
import Foundation

/// Carries the verifier's OCSP requests over the server's HTTP transport (async-http-client
/// in production, the in-process emulator in tests), giving up after a timeout.
struct HTTPOCSPTransport: OCSPTransport {
    /// The transport requests go through.
    let transport: any HTTPTransport
    /// How long to wait for an answer.
    let timeout: Duration

    /// The responder did not answer within ``timeout``.
    struct TimedOut: Error, CustomStringConvertible {
        let timeout: Duration
        var description: String { "no answer within \(timeout)" }
    }

    func post(_ request: [UInt8], to url: URL) async throws -> OCSPTransportResponse {
        let httpRequest = HTTPRequestData(
            method: .post, url: url, headers: ["Content-Type": "application/ocsp-request"], body: Data(request))
        let response = try await withThrowingTaskGroup(of: HTTPResponseData.self) { group in
            group.addTask { try await transport.send(httpRequest) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TimedOut(timeout: timeout)
            }
            defer { group.cancelAll() }
            return try await group.next()!  // two tasks were added: the first to finish answers
        }
        return OCSPTransportResponse(statusCode: response.status, body: Array(response.body))
    }
}
