import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// Look-alike player ids (issue 25, section 1): an identifier is compared one way, the
/// database's, because only identifiers in their one standard form get in
/// (``IdentifierRule``). Each pair is an owner and a second player whose id renders like
/// the owner's; the second never reads, binds or claims what is the owner's.
@Suite("Identity of look-alike ids")
struct IdentityTests {
    /// Owners and look-alikes the rule refuses: canonical variants (Swift calls them equal
    /// to the owner), compatibility variants, invisible and bidirectional characters.
    static let refusedLookAlikes: [(owner: String, lookAlike: String)] = [
        ("jos\u{E9}", "jose\u{301}"), ("\u{C5}sa", "\u{212B}sa"), ("bob", "ｂｏｂ"), ("bob", "b\u{200B}ob"),
        ("bob", "bob\u{202E}"), ("bob", "\u{2066}bob\u{2069}"), ("bob", "bob "),
    ]

    @Test("a look-alike's token is refused on every player route", arguments: StoreKind.allCases)
    func lookAlikesRefused(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        for (owner, lookAlike) in Self.refusedLookAlikes {
            let order = try await fixture.order(owner)
            let paid = try await fixture.pay(token: order.appAccountToken)
            let signed = try #require(paid.signedTransaction)
            let token = fixture.token(lookAlike)
            for (method, path, body) in [
                (RequestMethod.get, "/v1/players/me/orders/\(order.orderId)", nil),
                (
                    .post, "/v1/purchases",
                    try JSONEncoder().encode(["signedTransaction": signed, "orderId": order.orderId])
                ),
                (.post, "/v1/orders", Data(#"{"productId":"coins100"}"#.utf8)),
                (.get, "/v1/players/me/wallet", nil), (.get, "/v1/players/me/orders", nil),
            ] {
                let answer = try await fixture.send(method, path, credential: token, body: body)
                #expect(answer.status == 401 && answer.code == "invalid_token", "\(method) \(path): \(answer)")
                #expect(answer.headers["x-content-type-options"] == "nosniff")
            }
            // The order is untouched and still the owner's to pay for.
            #expect(try await fixture.store.order(id: order.orderId)?.status == .created)
            let delivered = try await fixture.report(owner, signedTransaction: signed, orderId: order.orderId)
            #expect(delivered.status == 200, "\(delivered)")
            let again = try await fixture.send(
                .post, "/v1/purchases", credential: token, json: ["signedTransaction": signed])
            #expect(again.status == 401, "\(again)")
        }
        // Nothing was ever written under a look-alike id.
        for (_, lookAlike) in Self.refusedLookAlikes {
            #expect(try await fixture.store.timeline(playerId: lookAlike).isEmpty)
        }
    }

    /// Ids that differ in case are two players, in Swift and in both databases: the second
    /// gets exactly what an unrelated player gets.
    @Test("ids that differ only in case are two owners", arguments: StoreKind.allCases)
    func caseIsSignificant(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        for (owner, other) in [("Bob", "bob"), ("jos\u{E9}", "JOS\u{C9}")] {
            let order = try await fixture.order(owner)
            let read = try await fixture.send(
                .get, "/v1/players/me/orders/\(order.orderId)", credential: fixture.token(other))
            #expect(read.status == 404 && read.code == "unknown_order", "\(read)")

            let own = try #require(try await fixture.pay(token: nil).signedTransaction)
            let bound = try await fixture.report(other, signedTransaction: own, orderId: order.orderId)
            #expect(bound.status == 409 && bound.code == "order_belongs_to_other_player", "\(bound)")
            #expect(try await fixture.store.order(id: order.orderId)?.status == .created)

            let paid = try #require(try await fixture.pay(token: order.appAccountToken).signedTransaction)
            #expect(try await fixture.report(owner, signedTransaction: paid, orderId: order.orderId).status == 200)
            let claimed = try await fixture.report(other, signedTransaction: paid)
            #expect(claimed.status == 409 && claimed.code == "transaction_belongs_to_other_player", "\(claimed)")
            #expect(try await fixture.wallet(owner) == ["coins": 100])
        }
    }

    @Test("every identifier in a body or path is checked, and path parameters are percent-decoded alike")
    func bodiesAndPaths() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let player = "jos\u{E9}"
        let order = try await fixture.order(player)
        let admin = ServerFixture.adminKey

        for product in ["coins100\u{200B}", "ｃｏｉｎｓ１００", "coins100\n"] {
            let answer = try await fixture.send(
                .post, "/v1/orders", credential: fixture.token("bob"), json: ["productId": product])
            #expect(answer.status == 400 && answer.code == "invalid_identifier", "\(answer)")
        }
        let forged = "1\n2026-11-28T13:09:00+0000 critical storekeeper: FORGED LINE"
        for body in [["receipt": "AAAA", "transactionId": forged], ["signedTransaction": "x.y.z", "orderId": forged]] {
            let answer = try await fixture.send(.post, "/v1/purchases", credential: fixture.token("bob"), json: body)
            #expect(answer.status == 400 && answer.code == "invalid_identifier", "\(answer)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains("FORGED"))
        }
        for grant in [
            ["playerId": "jose\u{301}", "grants": ["coins": 1], "reason": "r"] as [String: any Sendable],
            ["playerId": "bob", "grants": ["ｃｏｉｎｓ": 1], "reason": "r"],
        ] {
            let body = try JSONSerialization.data(withJSONObject: grant)
            let answer = try await fixture.send(.post, "/v1/admin/grants", credential: admin, body: body)
            #expect(answer.status == 400 && answer.code == "invalid_identifier", "\(answer)")
        }

        // One rule for every path parameter: each is percent-decoded, then checked.
        let orders = try await fixture.send(
            .get, "/v1/admin/players/\(percentEncoded(player))/orders", credential: admin)
        #expect(orders.status == 200 && String(decoding: orders.body, as: UTF8.self).contains(order.orderId))
        let variant = try await fixture.send(
            .get, "/v1/admin/players/\(percentEncoded("jose\u{301}"))/orders", credential: admin)
        #expect(variant.status == 400 && variant.code == "invalid_identifier", "\(variant)")
        for path in [
            "/v1/admin/orders/\(percentEncoded(order.orderId, everyByte: true))",
            "/v1/players/me/orders/\(percentEncoded(order.orderId, everyByte: true))",
        ] {
            let answer = try await fixture.send(
                .get, path, credential: path.contains("admin") ? admin : fixture.token(player))
            #expect(answer.status == 200, "\(path): \(answer)")
        }
        for path in [
            "/v1/admin/transactions/1%0A2", "/v1/admin/orders/%E2%80%AEx", "/v1/admin/transactions/%E2%80%8B1",
        ] {
            let answer = try await fixture.send(.get, path, credential: admin)
            #expect(answer.status == 400, "\(path): \(answer)")
            #expect(["invalid_identifier", "invalid_request"].contains(answer.code ?? ""), "\(path): \(answer)")
        }
        let unknown = try await fixture.send(.get, "/v1/nothing-here")
        #expect(unknown.status == 404 && unknown.headers["x-content-type-options"] == "nosniff")
    }

    private func percentEncoded(_ text: String, everyByte: Bool = false) -> String {
        text.utf8.map { byte in
            let scalar = Unicode.Scalar(byte)
            let plain = !everyByte && byte < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            return plain ? String(scalar) : String(format: "%%%02X", byte)
        }.joined()
    }
}
