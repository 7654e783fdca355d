import AppStoreAPI
import Foundation
import Testing

/// The timeout of ``AsyncHTTPClientTransport`` as a configuration may give it.
struct AsyncHTTPClientTransportTests {
    @Test(
        "a NaN or too long timeout throws InvalidTimeoutError before anything is sent",
        arguments: [
            Double.nan, .infinity, 1e300, 1e10,
        ])
    func unusableTimeout(timeout: Double) async throws {
        let transport = AsyncHTTPClientTransport(timeout: timeout)
        let request = HTTPRequestData(method: .get, url: try #require(URL(string: "http://127.0.0.1:1/")))
        let error = await #expect(throws: InvalidTimeoutError.self) { _ = try await transport.send(request) }
        #expect(error?.timeout.isNaN == true || error?.timeout == timeout)
    }
}
