import Foundation
import Ledger
import LedgerTestSupport
import Testing

extension EntitlementTests {
    @Test(
        "a transfer moves the holder, with an event and a message for each player, once", arguments: StoreKind.allCases)
    func transfer(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.deliver(F.levelPack("5000", player: "alice"))
            let before = Date()
            let result = try await store.transferEntitlement(
                store: .appStore, originalTransactionId: "5000", to: "bob", reason: "restore",
                actor: "policy:transfer_to_latest")
            guard case .transferred(let from, let moved) = result else {
                Issue.record("expected a transfer, got \(result)")
                return
            }
            #expect(from == "alice")
            #expect(moved.playerId == "bob")
            #expect(moved.transactionId == "5000")
            #expect(try await store.entitlements(playerId: "alice").isEmpty)
            #expect(try await store.entitlements(playerId: "bob") == [moved])

            for player in ["alice", "bob"] {
                let events = try await store.entitlementEvents(playerId: player).filter {
                    $0.type == .entitlementTransferred
                }
                #expect(events.count == 1, "one transfer event on \(player)'s timeline")
                #expect(events.first?.detail["from"] == "alice")
                #expect(events.first?.detail["to"] == "bob")
                #expect(events.first?.detail["reason"] == "restore")
                #expect(events.first?.detail["actor"] == "policy:transfer_to_latest")
            }
            let at = try #require(
                try await store.entitlementEvents(playerId: "bob").last?.createdAt, "the transfer's time")
            #expect(at >= before.addingTimeInterval(-1))
            let toBob = try #require(
                try await store.entitlementMessage(
                    key: EntitlementMessage.transferKey(
                        store: .appStore, originalTransactionId: "5000", playerId: "bob", at: at)))
            #expect(toBob.playerId == "bob")
            #expect(toBob.entitled)
            #expect(toBob.reason == "restore")
            let toAlice = try #require(
                try await store.entitlementMessage(
                    key: "entitlement-transfer:5000:alice:\(Int64((at.timeIntervalSince1970 * 1000).rounded()))"))
            #expect(toAlice.playerId == "alice")
            #expect(!toAlice.entitled, "the previous holder is told it lost it")

            let again = try await store.transferEntitlement(
                store: .appStore, originalTransactionId: "5000", to: "bob", reason: "restore", actor: nil)
            #expect(again == .alreadyHeld(moved))
            #expect(try await store.entitlementEvents(playerId: "bob").count == 1, "the transfer's only")
            #expect(try await store.entitlementEvents(playerId: "alice").count == 2, "the insert's and the transfer's")
            #expect(
                try await store.transferEntitlement(
                    store: .appStore, originalTransactionId: "x", to: "bob", reason: "r", actor: nil)
                    == .unknown)
        }
    }

    @Test("a delivery never moves the holder", arguments: StoreKind.allCases)
    func deliveryKeepsHolder(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.deliver(F.renewal("6000", period: 0, player: "alice"))
            _ = try await store.transferEntitlement(
                store: .appStore, originalTransactionId: "6000", to: "bob", reason: "r", actor: nil)
            // Alice's device reports the renewal: the purchase is hers, the chain stays Bob's.
            #expect(try await store.deliver(F.renewal("6000", period: 1, player: "alice")).isFirstDelivery)
            let entitlement = try #require(try await store.entitlement(store: .appStore, originalTransactionId: "6000"))
            #expect(entitlement.playerId == "bob")
            #expect(entitlement.transactionId == "6000-1")
            #expect(try await store.entitlementEvents(playerId: "bob").last?.type == .entitlementChanged)
        }
    }

    @Test("the outbox message's JSON has the contract's keys, dates in milliseconds", arguments: StoreKind.allCases)
    func messageShape(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.deliver(F.levelPack("7000"))
            let key = "entitlement:7000:alice:1700000000000:active:7000:permanent"
            let outbox = try #require(try await store.outboxMessage(idempotencyKey: key))
            #expect(outbox.playerId == "alice")
            #expect(outbox.transactionId == "7000")
            let json = try #require(try JSONSerialization.jsonObject(with: outbox.payload) as? [String: Any])
            #expect(
                Set(json.keys) == [
                    "kind", "playerId", "store", "entitlementId", "productId", "state", "entitled", "since", "until",
                    "transactionId", "originalTransactionId", "ownership", "reason", "appleSignedDate",
                ])
            #expect(json["kind"] as? String == "entitlement")
            #expect(json["store"] as? String == "app_store")
            #expect(json["entitlementId"] as? String == "levelpack1")
            #expect(json["productId"] as? String == "levelpack1")
            #expect(json["state"] as? String == "active")
            #expect(json["entitled"] as? Bool == true)
            #expect(json["since"] as? Int64 == 1_700_000_000_000)
            #expect(json["until"] is NSNull)
            #expect(json["ownership"] as? String == "PURCHASED")
            #expect(json["reason"] as? String == "client_signed_transaction", "no reason given: the source")
            #expect(json["appleSignedDate"] as? Int64 == 1_700_000_000_000)
            // The delivery's own message is still there, under the transaction id.
            #expect(try await store.outboxMessage(idempotencyKey: "7000") != nil)
            #expect(try await store.dueOutboxMessages(now: Date(), limit: 10).count == 2)
        }
    }
}
