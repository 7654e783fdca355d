import Foundation
import LedgerTestSupport
import Testing

/// What a client may store is bounded, numbers out of range are refused by name, and the
/// list endpoints page: found by schemathesis against `serve --dev` (an `occurredAt` near
/// `Int64.max` trapped in a conversion and took the whole process down).
@Suite("Request bounds and paging")
struct RequestBoundsTests {
    @Test("events out of bounds are refused by field, and the server stays up")
    func eventBounds() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let token = fixture.token("alice")
        let attributes = (0..<33).map { #""k\#($0)":"v""# }.joined(separator: ",")
        let refused: [(String, String)] = [
            (#"{"events":[{"name":"x","occurredAt":9223372036854775807}]}"#, "events[0].occurredAt"),
            (#"{"events":[{"name":"x","occurredAt":1},{"name":"y","occurredAt":-1}]}"#, "events[1].occurredAt"),
            (#"{"events":[{"name":"\#(String(repeating: "n", count: 129))","occurredAt":1}]}"#, "events[0].name"),
            (#"{"events":[{"name":"x","occurredAt":1,"attributes":{\#(attributes)}}]}"#, "events[0].attributes"),
            (
                #"{"events":[{"name":"x","occurredAt":1,"attributes":{"k":"\#(String(repeating: "v", count: 1_025))"}}]}"#,
                "events[0].attributes.k"
            ),
            (#"{"events":[{"name":"x","occurredAt":1e300}]}"#, "out of range"),
        ]
        let refusedIdentifiers: [(String, String)] = [
            (#"{"events":[{"name":"x","occurredAt":1,"orderId":""}]}"#, "events[0].orderId"),
            (
                #"{"events":[{"name":"x","occurredAt":1,"transactionId":"\#(String(repeating: "1", count: 65))"}]}"#,
                "events[0].transactionId"
            ),
        ]
        for (body, field) in refused + refusedIdentifiers {
            let answer = try await fixture.send(.post, "/v1/events", credential: token, body: Data(body.utf8))
            #expect(answer.status == 400, "\(field): \(answer)")
            let code = refusedIdentifiers.contains { $0.1 == field } ? "invalid_identifier" : "invalid_request"
            #expect(answer.code == code, "\(field): \(answer)")
            #expect(String(decoding: answer.body, as: UTF8.self).contains(field), "\(answer)")
        }
        #expect(try await fixture.send(.get, "/healthz").status == 200)
        #expect(try await fixture.store.timeline(playerId: "alice").isEmpty, "nothing of a refused batch is kept")
        let latest = #"{"events":[{"name":"x","occurredAt":253402300799999}]}"#
        #expect(try await fixture.send(.post, "/v1/events", credential: token, body: Data(latest.utf8)).status == 202)
    }

    @Test("the ledger keeps the configured number of client events per player")
    func eventRetention() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false) { $0.clientEventsPerPlayer = 3 }
        defer { Task { await fixture.shutdown() } }
        for index in 0..<5 {
            let body = #"{"events":[{"name":"step_\#(index)","occurredAt":\#(1_700_000_000_000 + index)}]}"#
            let answer = try await fixture.send(
                .post, "/v1/events", credential: fixture.token("alice"), body: Data(body.utf8))
            #expect(answer.status == 202)
        }
        let names = try await fixture.store.timeline(playerId: "alice").compactMap { $0.detail["name"] }
        #expect(names == ["step_2", "step_3", "step_4"])
    }

    @Test("orders and the timeline page with limit and cursor; a foreign cursor or limit is refused")
    func paging() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        var created: [String] = []
        for _ in 0..<3 { created.append(try await fixture.order("alice").orderId) }
        let token = fixture.token("alice")

        let first = try await fixture.send(.get, "/v1/players/me/orders?limit=2", credential: token)
        let firstPage = try first.decode(OrderPage.self)
        #expect(firstPage.orders.map(\.orderId) == Array(created.prefix(2)))
        let cursor = try #require(firstPage.nextCursor)
        let second = try await fixture.send(.get, "/v1/players/me/orders?limit=2&cursor=\(cursor)", credential: token)
        let secondPage = try second.decode(OrderPage.self)
        #expect(secondPage.orders.map(\.orderId) == [created[2]])
        #expect(secondPage.nextCursor == nil)
        let admin = try await fixture.send(
            .get, "/v1/admin/players/alice/orders?limit=2&cursor=\(cursor)", credential: ServerFixture.adminKey)
        #expect(try admin.decode(OrderPage.self).orders.map(\.orderId) == [created[2]])

        let timeline = try await fixture.send(
            .get, "/v1/admin/players/alice/timeline?limit=1", credential: ServerFixture.adminKey)
        let timelinePage = try timeline.decode(TimelinePage.self)
        #expect(timelinePage.events.count == 1)
        let timelineCursor = try #require(timelinePage.nextCursor)
        let rest = try await fixture.send(
            .get, "/v1/admin/players/alice/timeline?cursor=\(timelineCursor)", credential: ServerFixture.adminKey)
        #expect(try rest.decode(TimelinePage.self).events.count == 2)

        for query in ["limit=0", "limit=501", "limit=two", "cursor=", "cursor=%21%21", "cursor=\(cursor)"] {
            let answer = try await fixture.send(
                .get, "/v1/admin/players/alice/timeline?\(query)", credential: ServerFixture.adminKey)
            #expect(answer.status == 400, "\(query): \(answer)")
            #expect(answer.code == "invalid_request")
        }
    }

    @Test("manual grants, lookups and orders refuse values out of range instead of overflowing")
    func adminBounds() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let bodies: [(String, String)] = [
            ("/v1/admin/grants", #"{"playerId":"p","grants":{"coins":9223372036854775807},"reason":"r"}"#),
            ("/v1/admin/grants", #"{"playerId":"p","grants":{"coins":-9223372036854775808},"reason":"r"}"#),
            ("/v1/admin/grants", #"{"playerId":"p","grants":{"coins":1000000000001},"reason":"r"}"#),
            ("/v1/admin/lookup-order", #"{"appleOrderId":"../../v1/transactions/1"}"#),
        ]
        for (path, body) in bodies {
            let answer = try await fixture.send(.post, path, credential: ServerFixture.adminKey, body: Data(body.utf8))
            #expect(answer.status == 400, "\(body): \(answer)")
            #expect(answer.code == "invalid_request")
        }
        let longPlayer = #"{"playerId":"\#(String(repeating: "p", count: 257))","grants":{"c":1},"reason":"r"}"#
        let refusedPlayer = try await fixture.send(
            .post, "/v1/admin/grants", credential: ServerFixture.adminKey, body: Data(longPlayer.utf8))
        #expect(refusedPlayer.status == 400 && refusedPlayer.code == "invalid_identifier", "\(refusedPlayer)")
        let most = #"{"playerId":"p","grants":{"coins":1000000000000},"reason":"r"}"#
        let granted = try await fixture.send(
            .post, "/v1/admin/grants", credential: ServerFixture.adminKey, body: Data(most.utf8))
        #expect(granted.status == 201)
        let longProduct = try await fixture.send(
            .post, "/v1/orders", credential: fixture.token("alice"),
            body: Data(#"{"productId":"\#(String(repeating: "x", count: 129))"}"#.utf8))
        #expect(longProduct.status == 400)
        #expect(try await fixture.wallet("p") == ["coins": 1_000_000_000_000])

        // A player id in an admin path: 256 characters (4-byte ones count once) at most.
        let longest = String(repeating: "𠀀", count: 256)
        let tooLong = String(repeating: "𠀀", count: 257)
        for route in ["timeline", "orders", "consumption-consent"] {
            func get(_ playerId: String) async throws -> Int {
                let path = playerId.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
                return try await fixture.send(
                    .get, "/v1/admin/players/\(path)/\(route)", credential: ServerFixture.adminKey
                ).status
            }
            #expect(try await get(longest) == 200, "\(route)")
            #expect(try await get(tooLong) == 400, "\(route)")
        }
    }

    @Test("a player id in an admin path is percent-decoded: 张三's timeline is 张三's")
    func percentEncodedPlayerId() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let grant = #"{"playerId":"张三","grants":{"coins":5},"reason":"ticket 1"}"#
        let granted = try await fixture.send(
            .post, "/v1/admin/grants", credential: ServerFixture.adminKey, body: Data(grant.utf8))
        #expect(granted.status == 201)
        let timeline = try await fixture.send(
            .get, "/v1/admin/players/%E5%BC%A0%E4%B8%89/timeline", credential: ServerFixture.adminKey)
        #expect(timeline.status == 200)
        #expect(String(decoding: timeline.body, as: UTF8.self).contains("ticket 1"))
    }

    private struct OrderPage: Decodable {
        struct Order: Decodable { var orderId: String }
        var orders: [Order]
        var nextCursor: String?
    }

    private struct TimelinePage: Decodable {
        struct Event: Decodable { var type: String }
        var events: [Event]
        var nextCursor: String?
    }
}
