import Foundation
import LedgerTestSupport
import Logging
import StoreKeeperLogging
import Synchronization
import Testing

/// No client can write a line into the server's log (issue 25, section 2): every string
/// field of every route in docs/openapi.yaml, every path parameter and query value, is sent
/// holding a forged log line, terminal escapes and bidirectional overrides. Identifiers are
/// refused at the edge with `invalid_identifier`; whatever else reaches the log stays inside
/// the one line of its record.
@Suite("Log injection")
struct LogInjectionTests {
    static let forged = "1\n2026-11-28T13:09:00+0000 critical storekeeper: FORGED LINE\r\u{1B}[2J\u{202E}\u{2028}x"

    /// The fields whose values are identifiers (and the maps whose keys are).
    static let identifierFields: Set<String> = [
        "playerId", "orderId", "transactionId", "productId", "idempotencyKey", "purchaseToken",
    ]
    static let identifierMaps: Set<String> = ["grants", "spent", "items"]

    @Test("every string a route takes: identifiers refused, the rest logged within its line")
    func everyRouteEveryString() async throws {
        let log = CapturedLog()
        var logger = Logger(label: "storekeeper") { EscapingLogHandler(label: $0, write: log.append) }
        logger.logLevel = .trace
        let fixture = try await ServerFixture(.sqlite, notifications: false, logger: logger)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let signed = try #require(paid.signedTransaction)
        let transactionId = try #require(paid.transactionId)
        #expect(try await fixture.report("alice", signedTransaction: signed).status == 200)
        let player = fixture.token("alice")
        let admin = ServerFixture.adminKey

        // A valid request of every operation: credential, body, query.
        let routes: [String: (credential: String?, bodies: [String], query: [String])] = [
            "GET /healthz": (nil, [], []), "GET /metrics": (nil, [], []), "GET /v1/products": (nil, [], []),
            "POST /v1/orders": (player, [#"{"productId":"coins100","quantity":1}"#], []),
            "POST /v1/purchases": (
                player,
                [
                    #"{"orderId":"\#(order.orderId)","signedTransaction":"\#(signed)"}"#,
                    #"{"orderId":"\#(order.orderId)","receipt":"AAAA","transactionId":"\#(transactionId)"}"#,
                    #"{"googlePlay":{"productId":"coins100","purchaseToken":"token-1","orderId":"GPA.1234-5678-9012-34567"}}"#,
                ], []
            ),
            "POST /v1/purchases/restore": (player, [#"{"signedTransactions":["\#(signed)"]}"#], []),
            "GET /v1/players/me/entitlements": (player, [], []), "GET /v1/players/me/wallet": (player, [], []),
            "GET /v1/players/me/orders": (player, [], ["cursor", "limit"]),
            "GET /v1/players/me/orders/{orderId}": (player, [], []),
            "GET /v1/players/me/consumption-consent": (player, [], []),
            "PUT /v1/players/me/consumption-consent": (player, [#"{"signedAppTransaction":"a.b.c"}"#], []),
            "DELETE /v1/players/me/consumption-consent": (player, [], []),
            "POST /v1/events": (
                player,
                [
                    #"{"events":[{"name":"n","orderId":"\#(order.orderId)","transactionId":"\#(transactionId)","occurredAt":1,"attributes":{"k":"v"}}]}"#
                ], []
            ),
            "POST /v1/notifications/apple": (nil, [#"{"signedPayload":"a.b.c"}"#], []),
            "POST /v1/notifications/google": (
                nil, [#"{"message":{"data":"e30=","messageId":"1","publishTime":"t"},"subscription":"s"}"#], []
            ),
            "GET /v1/admin/players/{playerId}/timeline": (admin, [], ["cursor", "limit"]),
            "GET /v1/admin/players/{playerId}/entitlements": (admin, [], []),
            "GET /v1/admin/players/{playerId}/orders": (admin, [], ["cursor", "limit"]),
            "GET /v1/admin/players/{playerId}/consumption-consent": (admin, [], []),
            "DELETE /v1/admin/players/{playerId}/consumption-consent": (admin, [], ["actor", "reason"]),
            "GET /v1/admin/transactions/{transactionId}": (admin, [], []),
            "GET /v1/admin/transactions/{transactionId}/consumption": (admin, [], []),
            "POST /v1/admin/transactions/{transactionId}/consumption": (
                admin, [#"{"consumptionPercentage":50000,"reportedBy":"game"}"#, #"{"spent":{"coins":1}}"#], []
            ),
            "GET /v1/admin/orders/{orderId}": (admin, [], []),
            "GET /v1/admin/google-play/purchases/{purchaseToken}": (admin, [], []),
            "POST /v1/admin/grants": (
                admin, [#"{"playerId":"alice","grants":{"coins":1},"reason":"r","actor":"sam"}"#], []
            ),
            "POST /v1/admin/players/{playerId}/spends": (
                admin, [#"{"idempotencyKey":"k1","items":{"coins":1},"reason":"r","actor":"sam"}"#], []
            ),
            "POST /v1/admin/lookup-order": (admin, [#"{"appleOrderId":"MK12345678","playerId":"alice"}"#], []),
        ]
        let document = try OpenAPIDocument.load()
        let documented = Set(document.operations.map(\.description))
        #expect(documented == Set(routes.keys), "routes not covered: \(documented.symmetricDifference(routes.keys))")

        let hostilePath = Self.forged.utf8.map { String(format: "%%%02X", $0) }.joined()
        let values = [
            "playerId": "alice", "orderId": order.orderId, "transactionId": transactionId, "purchaseToken": "token-1",
        ]
        var sent = 0
        for (operation, route) in routes.sorted(by: { $0.key < $1.key }) {
            let parts = operation.split(separator: " ")
            let method = try #require(RequestMethod(rawValue: parts[0].lowercased()))
            let template = String(parts[1])
            let parameters = OpenAPIDocument.templateParameters(in: template)
            // Each path parameter hostile in turn, the others valid.
            for hostile in parameters {
                var path = template
                for name in parameters {
                    path = path.replacingOccurrences(
                        of: "{\(name)}", with: name == hostile ? hostilePath : values[name]!)
                }
                let answer = try await fixture.send(
                    method, path, credential: route.credential, body: route.bodies.first.map { Data($0.utf8) })
                #expect(
                    answer.status == 400 && answer.code == "invalid_identifier", "\(operation) {\(hostile)}: \(answer)")
                sent += 1
            }
            var path = template
            for name in parameters { path = path.replacingOccurrences(of: "{\(name)}", with: values[name]!) }
            for name in route.query {
                let answer = try await fixture.send(
                    method, "\(path)?\(name)=\(hostilePath)", credential: route.credential,
                    body: route.bodies.first.map { Data($0.utf8) })
                #expect(answer.status < 500, "\(operation) ?\(name): \(answer)")
                sent += 1
            }
            for body in route.bodies {
                let json = try JSONSerialization.jsonObject(with: Data(body.utf8))
                for (variant, location) in Self.variants(of: json, key: nil) {
                    let data = try JSONSerialization.data(withJSONObject: variant)
                    let answer = try await fixture.send(method, path, credential: route.credential, body: data)
                    #expect(answer.status < 500, "\(operation) \(location): \(answer)")
                    if Self.identifierFields.contains(location) || location.hasPrefix("key of ") {
                        #expect(
                            answer.status == 400 && answer.code == "invalid_identifier",
                            "\(operation) \(location): \(answer)")
                    }
                    sent += 1
                }
            }
        }
        #expect(sent > 30)
        let lines = log.lines
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(
                line.wholeMatch(
                    of:
                        /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (trace|debug|info|notice|warning|error|critical) \S+: .*/
                ) != nil, "\(line)")
            #expect(
                !line.unicodeScalars.contains {
                    $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}" || $0 == "\u{2028}"
                }, "\(line)")
        }
        #expect(!log.text.contains("\n2026-11-28T13:09:00+0000"))
        // Wherever the text reached the log (today: nowhere, even at trace level), it is
        // escaped inside its record.
        for line in lines where line.contains("FORGED LINE") {
            #expect(line.contains(#"1\n2026-11-28T13:09:00+0000 critical storekeeper: FORGED LINE\r\u{1B}"#))
        }
    }

    /// Each way of putting ``forged`` into `json`: every string value in turn (named by its
    /// key), and every key of a map of items (named `key of grants`).
    static func variants(of json: Any, key: String?) -> [(Any, String)] {
        switch json {
        case let text as String where !text.isEmpty || key != nil:
            return [(forged, key ?? "value")]
        case let array as [Any]:
            return array.indices.flatMap { index in
                variants(of: array[index], key: key).map { variant, location in
                    var copy = array
                    copy[index] = variant
                    return (copy as Any, location)
                }
            }
        case let object as [String: Any]:
            var result: [(Any, String)] = []
            for (name, value) in object {
                for (variant, location) in variants(of: value, key: name) {
                    var copy = object
                    copy[name] = variant
                    result.append((copy, location))
                }
                if let key, identifierMaps.contains(key) {
                    var copy = object
                    copy[name] = nil
                    copy[forged] = value
                    result.append((copy, "key of \(key)"))
                }
            }
            return result
        default:
            return []
        }
    }
}

/// What an ``EscapingLogHandler`` wrote.
private final class CapturedLog: Sendable {
    private let storage = Mutex("")

    @Sendable func append(_ line: String) { storage.withLock { $0 += line } }

    var text: String { storage.withLock { $0 } }

    var lines: [Substring] { text.split(separator: "\n") }
}
