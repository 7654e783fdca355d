import Foundation
import LedgerTestSupport
import PurchaseServer
import Testing

/// Slow and idle clients (slowloris): hundreds of connections that send part of a request
/// line and stall do not keep a real request from being answered, and are closed after
/// `load.idleTimeoutSeconds`.
@Suite("Slow connections")
struct SlowConnectionTests {
    static let stalled = 500

    @Test("500 stalled connections: a real request is answered, and they are closed after the idle timeout")
    func stalledConnectionsAreClosed() async throws {
        // Each stalled connection is two descriptors of this process (the client's end and
        // the server's), beside every other test's: a soft limit of 1,024 would not hold them.
        #expect(DescriptorLimit.raise(toAtLeast: 16_384) >= 4 * Self.stalled, "the open-file limit fits the test")
        let fixture = try await ServerFixture(.sqlite, notifications: false) { $0.load.idleTimeoutSeconds = 5 }
        defer { Task { await fixture.shutdown() } }
        let port = try #require(await fixture.stack.baseURL.port)
        var connections: [RawConnection] = []
        for _ in 0..<Self.stalled {
            let connection = try await RawConnection.open(port: port)
            try await connection.send("GET /v1/prod")
            connections.append(connection)
        }
        let answer = try await fixture.send(.get, "/v1/products", timeout: .seconds(10))
        #expect(answer.status == 200, "\(answer)")
        let closed = try await RawConnection.waitUntilClosed(connections, within: 60)
        #expect(closed == Self.stalled, "the server closed every stalled connection")
        // On a new connection: the HTTP client's pooled one has been idle past the timeout too.
        let fresh = try await RawConnection.open(port: port)
        try await fresh.send("GET /v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(try await fresh.status() == 200)
    }

    @Test("an idle keep-alive connection is closed after the idle timeout")
    func idleConnectionIsClosed() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false) { $0.load.idleTimeoutSeconds = 1 }
        defer { Task { await fixture.shutdown() } }
        let port = try #require(await fixture.stack.baseURL.port)
        let connection = try await RawConnection.open(port: port)
        try await connection.send("GET /v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try await RawConnection.waitUntilClosed([connection], within: 60) == 1)
    }
}
