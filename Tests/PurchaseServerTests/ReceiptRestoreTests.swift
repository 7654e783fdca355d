import AppStoreEmulator
import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// `POST /v1/purchases/restore` with the app receipt and the restored transactions' ids
/// (StoreKit 1, whose transactions are not signed).
@Suite("Restore by receipt (StoreKit 1)")
struct ReceiptRestoreTests {
    @Test(
        "a second device's receipt restores the account's purchases; consumables and ids it lacks are refused",
        arguments: StoreKind.allCases)
    func restoresFromTheReceipt(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let pack = try #require(try await fixture.pay(product: "levelpack1", token: nil).transactionId)
        let coins = try #require(try await fixture.pay(product: "coins100", token: nil).transactionId)
        _ = try await fixture.emulator.updateDevice("tablet", settings: DeviceSettings(appleAccount: "phone"))
        let receipt = try await fixture.emulator.receipt(deviceId: "tablet")
        let body = RestoreByReceipt(receipt: receipt, transactionIds: [pack, coins, "2000000999999"])

        let reply = try await fixture.restore("alice", body)
        #expect(reply.results.map(\.status) == ["restored", "rejected", "rejected"])
        #expect(reply.results.map(\.transactionId) == [pack, coins, "2000000999999"])
        #expect(reply.results[0].productId == "levelpack1")
        // The tablet's receipt lists the phone's level pack, not the phone's coins.
        #expect(reply.results.dropFirst().map(\.code) == ["transaction_not_in_receipt", "transaction_not_in_receipt"])
        #expect(reply.entitlements.map(\.entitlementId) == ["levelpack1"])
        let purchase = try #require(try await fixture.store.purchase(store: .appStore, transactionId: pack))
        #expect(purchase.playerId == "alice" && purchase.source == .clientReceipt)

        let phone = try await fixture.emulator.receipt(deviceId: "phone")
        let again = try await fixture.restore("alice", RestoreByReceipt(receipt: phone, transactionIds: [pack, coins]))
        #expect(again.results.map(\.status) == ["already_owned", "not_restorable"])
        #expect(try await fixture.wallet("alice").isEmpty, "a restore never grants a consumable")
    }

    @Test("a receipt names no order: a transaction another player's order paid is refused to the restorer")
    func boundThroughApple() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "levelpack1")
        let paid = try await fixture.pay(product: "levelpack1", token: order.appAccountToken)
        let body = RestoreByReceipt(
            receipt: try #require(paid.appReceipt), transactionIds: [try #require(paid.transactionId)])
        // Apple's Server API gives the order's token: the receipt alone would let bob have it.
        let reply = try await fixture.restore("bob", body)
        #expect(reply.results.map(\.status) == ["rejected"], "\(reply.results)")
        #expect(reply.results.first?.code == "transaction_belongs_to_other_player")
        #expect(reply.entitlements.isEmpty)
        #expect(
            try await fixture.store.purchase(store: .appStore, transactionId: try #require(paid.transactionId)) == nil)
        let alice = try await fixture.restore("alice", body)
        #expect(alice.results.map(\.status) == ["restored"], "\(alice.results)")
    }

    @Test("malformed bodies are 400 and restore nothing")
    func malformed() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.pay(product: "levelpack1", token: nil)
        let receipt = try #require(paid.appReceipt)
        let id = try #require(paid.transactionId)
        let signed = try #require(paid.signedTransaction)
        let bodies: [(String, [String: any Sendable])] = [
            ("both", ["signedTransactions": [signed], "receipt": receipt, "transactionIds": [id]]),
            ("receipt alone", ["receipt": receipt]),
            ("ids alone", ["transactionIds": [id]]),
            ("empty receipt", ["receipt": "", "transactionIds": [id]]),
            ("no ids", ["receipt": receipt, "transactionIds": [String]()]),
            ("101 ids", ["receipt": receipt, "transactionIds": Array(repeating: id, count: 101)]),
            ("nothing", [:]),
        ]
        for (name, body) in bodies {
            let answer = try await fixture.send(
                .post, "/v1/purchases/restore", credential: fixture.token("alice"),
                body: try JSONSerialization.data(withJSONObject: body))
            #expect(answer.status == 400 && answer.code == "invalid_request", "\(name): \(answer)")
        }
        let invisible = try await fixture.send(
            .post, "/v1/purchases/restore", credential: fixture.token("alice"),
            json: RestoreByReceipt(receipt: receipt, transactionIds: [id + "\u{200B}"]))
        #expect(invisible.status == 400 && invisible.code == "invalid_identifier", "\(invisible)")
        let forged = try await fixture.restore(
            "alice", RestoreByReceipt(receipt: Data("not a receipt".utf8).base64EncodedString(), transactionIds: [id]))
        #expect(forged.results.map(\.status) == ["rejected"] && forged.results.first?.transactionId == id)
        #expect(try await fixture.store.purchase(store: .appStore, transactionId: id) == nil, "nothing was restored")
    }
}

/// A restore by receipt's body.
private struct RestoreByReceipt: Encodable {
    var receipt: String
    var transactionIds: [String]
}

extension ServerFixture {
    /// Restores by receipt as `player`.
    fileprivate func restore(_ player: String, _ body: RestoreByReceipt) async throws -> RestoreReply {
        let answer = try await send(.post, "/v1/purchases/restore", credential: token(player), json: body)
        guard answer.status == 200 else { throw FixtureError("restore failed: \(answer)") }
        return try answer.decode(RestoreReply.self)
    }
}
