import Foundation
import PurchaseSDK
import Testing

/// A ``URLSessionTransport`` whose timeout no `Duration` of milliseconds holds.
@Suite(.timeLimit(.minutes(3))) struct URLSessionTransportTimeoutTests {
    @Test(arguments: [Double.infinity, .nan, 1e300])
    func anUnboundedTimeoutSetsNoDeadlineOfItsOwn(timeout: Double) async throws {
        let transport = URLSessionTransport(timeout: timeout)
        let request = NetworkRequest(method: "GET", url: try #require(URL(string: "http://127.0.0.1:1/")))
        // Nothing listens on port 1: the request fails at once, with URLSession's error.
        await #expect(throws: (any Error).self) { _ = try await transport.send(request) }
    }
}
