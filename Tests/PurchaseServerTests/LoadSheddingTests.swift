import Foundation
import LedgerTestSupport
import PurchaseServer
import Testing

/// The bound on requests in flight (`load.maximumRequestsInFlight`): with the bound held by
/// requests whose bodies have not come yet, the next player request is answered at once
/// with 503 `overloaded` and `Retry-After`, and does nothing; staff routes and `/healthz`
/// still answer; once the held requests finish, requests are accepted again at once.
@Suite("Load shedding")
struct LoadSheddingTests {
    static let bound = 3
    static let orderBody = #"{"productId":"coins100"}"#

    /// An order request by `player` whose head is sent and whose body is not: the server
    /// admitted it and waits for the body.
    private static func heldOrder(_ fixture: ServerFixture, port: Int, player: String) async throws -> RawConnection {
        let connection = try await RawConnection.open(port: port)
        try await connection.send(
            "POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Authorization: Bearer \(fixture.token(player))\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(orderBody.utf8.count)\r\n\r\n")
        return connection
    }

    @Test(
        "past the bound a request is shed with 503 overloaded and Retry-After; accepted again at once",
        arguments: StoreKind.allCases)
    func shedAtTheBound(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false) {
            $0.load.maximumRequestsInFlight = Self.bound
            $0.load.retryAfterSeconds = 2
        }
        defer { Task { await fixture.shutdown() } }
        let server = try await fixture.server
        let port = try #require(await fixture.stack.baseURL.port)
        var held: [RawConnection] = []
        for index in 0..<Self.bound {
            held.append(try await Self.heldOrder(fixture, port: port, player: "held\(index)"))
        }
        try await fixture.eventually("the held requests admitted") { server.requestsInFlight == Self.bound }

        let shed = try await fixture.send(
            .post, "/v1/orders", credential: fixture.token("bob"), json: ["productId": "coins100"])
        #expect(shed.status == 503, "\(shed)")
        #expect(shed.code == "overloaded", "\(shed)")
        #expect(shed.headers["retry-after"] == "2", "\(shed.headers)")
        let wallet = try await fixture.send(.get, "/v1/players/me/wallet", credential: fixture.token("bob"))
        #expect(wallet.status == 503 && wallet.code == "overloaded", "reads are shed too: \(wallet)")
        // Staff and health checks are not shed.
        #expect(try await fixture.send(.get, "/healthz").status == 200)
        let orders = try await fixture.send(.get, "/v1/admin/players/bob/orders", credential: ServerFixture.adminKey)
        #expect(orders.status == 200, "\(orders)")
        #expect(String(decoding: orders.body, as: UTF8.self) == #"{"orders":[]}"#, "the shed order was not created")
        #expect(server.requestsInFlight == Self.bound, "a shed request takes no place")

        for connection in held { try await connection.send(Self.orderBody) }
        for connection in held { #expect(try await connection.status() == 201) }
        #expect(server.requestsInFlight == 0)
        let accepted = try await fixture.send(
            .post, "/v1/orders", credential: fixture.token("bob"), json: ["productId": "coins100"])
        #expect(accepted.status == 201, "accepted again at once: \(accepted)")
        let metrics = String(decoding: try await fixture.send(.get, "/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"route="/v1/orders",status="503""#), "shed requests are counted")
    }

    @Test("a body that does not arrive in time is answered 408 body_timeout and gives its place back")
    func slowBodyGivesItsPlaceBack() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false) {
            $0.load.maximumRequestsInFlight = 2
            $0.load.bodyTimeoutSeconds = 1
            $0.load.idleTimeoutSeconds = 600
        }
        defer { Task { await fixture.shutdown() } }
        let server = try await fixture.server
        let port = try #require(await fixture.stack.baseURL.port)
        var held: [RawConnection] = []
        for index in 0..<2 {
            let connection = try await Self.heldOrder(fixture, port: port, player: "slow\(index)")
            try await connection.send(String(Self.orderBody.prefix(5)))
            held.append(connection)
        }
        // Each is answered once its second passes, long before the idle timeout.
        for connection in held { #expect(try await connection.status() == 408) }
        #expect(server.requestsInFlight == 0)
        let accepted = try await fixture.send(
            .post, "/v1/orders", credential: fixture.token("bob"), json: ["productId": "coins100"])
        #expect(accepted.status == 201, "\(accepted)")
        let orders = try await fixture.send(.get, "/v1/admin/players/slow0/orders", credential: ServerFixture.adminKey)
        #expect(String(decoding: orders.body, as: UTF8.self) == #"{"orders":[]}"#, "nothing of it was done")
    }

    @Test("the limits come from the configuration file and STOREKEEPER_* variables, checked")
    func limitsConfigured() throws {
        let file = try JSONDecoder().decode(
            ServerConfiguration.self, from: Data(#"{"load":{"maximumRequestsInFlight":40}}"#.utf8))
        #expect(file.load.maximumRequestsInFlight == 40)
        #expect(file.load.retryAfterSeconds == LoadSettings().retryAfterSeconds, "absent keys keep their defaults")
        let configured = try file.applyingEnvironment([
            "STOREKEEPER_MAX_REQUESTS_IN_FLIGHT": "64", "STOREKEEPER_OVERLOAD_RETRY_AFTER_SECONDS": "3",
            "STOREKEEPER_IDLE_TIMEOUT_SECONDS": "12.5", "STOREKEEPER_MAX_CONNECTIONS": "900",
            "STOREKEEPER_BODY_TIMEOUT_SECONDS": "4",
        ])
        #expect(
            configured.load
                == LoadSettings(
                    maximumRequestsInFlight: 64, retryAfterSeconds: 3, idleTimeoutSeconds: 12.5,
                    maximumConnections: 900,
                    bodyTimeoutSeconds: 4))
        #expect(throws: ConfigurationError.self) {
            try file.applyingEnvironment(["STOREKEEPER_MAX_REQUESTS_IN_FLIGHT": "many"])
        }
        var invalid = ServerConfiguration(playerTokenSecret: "0123456789ab", adminKey: "0123456789ab")
        invalid.load = LoadSettings(
            maximumRequestsInFlight: 0, retryAfterSeconds: 0, idleTimeoutSeconds: 0, maximumConnections: 0)
        #expect(invalid.validationProblems().filter { $0.hasPrefix("load.") }.count == 4)
        // The descriptors the process may open bound the connections, keeping some for the rest.
        #expect(LoadSettings(maximumConnections: 4_096).connectionLimit(descriptorLimit: 1_024) == 768)
        #expect(LoadSettings(maximumConnections: 100).connectionLimit(descriptorLimit: 1_024) == 100)
        // A client keeps an idle connection half as long as the server, half the default's
        // when the server's is out of range (NaN included).
        #expect(LoadSettings(idleTimeoutSeconds: 12.5).clientIdleTimeout == .milliseconds(6_250))
        #expect(LoadSettings(idleTimeoutSeconds: 0.1).clientIdleTimeout == .milliseconds(50))
        #expect(LoadSettings(idleTimeoutSeconds: .nan).clientIdleTimeout == .seconds(15))
        #expect(LoadSettings(idleTimeoutSeconds: 1e300).clientIdleTimeout == .seconds(15))
    }
}
