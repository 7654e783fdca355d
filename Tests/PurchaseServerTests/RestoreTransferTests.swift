import AppStoreEmulator
import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// `POST /v1/purchases/restore` end to end: what a device's App Store account owns comes
/// back to the right player, under each transfer policy; consumables never come back.
@Suite("Restore and transfer, end to end")
struct RestoreTransferTests {
    @Test("the buyer restoring again already owns it; a consumable is never restored", arguments: StoreKind.allCases)
    func sameAndConsumable(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let pack = try await fixture.buy("alice", "levelpack1")
        let coins = try await fixture.buy("alice", "coins100")
        let reply = try await fixture.restore(
            "alice", [try #require(pack.signedTransaction), try #require(coins.signedTransaction)])
        #expect(reply.results.map(\.status) == ["already_owned", "not_restorable"])
        #expect(reply.results[1].code == "not_restorable")
        #expect(reply.entitlements.map(\.entitlementId) == ["levelpack1"])
        #expect(try await fixture.wallet("alice") == ["coins": 100], "the coins were granted once")

        let bob = try await fixture.restore("bob", [try #require(coins.signedTransaction)])
        #expect(bob.results.map(\.status) == ["not_restorable"])
        #expect(try await fixture.wallet("bob") == [:])
    }

    @Test("a purchase the server never saw is restored to the reporting player", arguments: StoreKind.allCases)
    func firstRestore(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.pay(product: "levelpack1", token: nil)
        let reply = try await fixture.restore("alice", [try #require(paid.signedTransaction)])
        #expect(reply.results.map(\.status) == ["restored"])
        #expect(reply.results.first?.transactionId == paid.transactionId)
        #expect(reply.entitlements.map(\.entitlementId) == ["levelpack1"])
        #expect(reply.entitlements.first?.entitled == true)
    }

    @Test("keep_with_first: a second player restoring gets nothing", arguments: StoreKind.allCases)
    func keepWithFirst(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let pack = try await fixture.buy("alice", "levelpack1")
        let reply = try await fixture.restore("bob", [try #require(pack.signedTransaction)])
        #expect(reply.results.map(\.status) == ["kept_by_other_player"])
        #expect(reply.entitlements.isEmpty)
        #expect(try await fixture.entitlement("alice", "levelpack1").entitled)
    }

    @Test("refuse: a second player restoring is refused", arguments: StoreKind.allCases)
    func refuse(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind) { $0.restoreTransferPolicy = .refuse }
        defer { Task { await fixture.shutdown() } }
        let pack = try await fixture.buy("alice", "levelpack1")
        let reply = try await fixture.restore("bob", [try #require(pack.signedTransaction)])
        #expect(reply.results.map(\.status) == ["refused"])
        #expect(reply.results.first?.code == "restore_refused")
        #expect(reply.entitlements.isEmpty)
        #expect(try await fixture.entitlement("alice", "levelpack1").entitled)
    }

    @Test(
        "transfer_to_latest: the entitlement moves, audited on both timelines",
        arguments: StoreKind.allCases)
    func transferToLatest(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind) { $0.restoreTransferPolicy = .transferToLatest }
        defer { Task { await fixture.shutdown() } }
        let pack = try await fixture.buy("alice", "levelpack1")
        let originalTransactionId = try #require(pack.transactionId)
        let reply = try await fixture.restore("bob", [try #require(pack.signedTransaction)])
        #expect(reply.results.map(\.status) == ["transferred"])
        #expect(reply.entitlements.map(\.originalTransactionId) == [originalTransactionId])
        #expect(try await fixture.entitlements("alice").isEmpty)
        #expect(try await fixture.entitlement("bob", "levelpack1").entitled)
        for player in ["alice", "bob"] {
            let timeline = try await fixture.store.timeline(playerId: player)
            let transfer = try #require(timeline.first { $0.type == .entitlementTransferred }, "\(player)")
            #expect(transfer.detail["from"] == "alice")
            #expect(transfer.detail["to"] == "bob")
            #expect(transfer.detail["actor"] == "bob")
        }
        let again = try await fixture.restore("bob", [try #require(pack.signedTransaction)])
        #expect(again.results.map(\.status) == ["already_owned"])
    }

    @Test("a second device of the same Apple account restores to the same player", arguments: StoreKind.allCases)
    func secondDevice(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let pack = try await fixture.buy("alice", "levelpack1")
        let vip = try await fixture.buy("alice", "vip.monthly")
        _ = try await fixture.buy("alice", "coins100")
        _ = try await fixture.emulator.updateDevice("tablet", settings: DeviceSettings(appleAccount: "phone"))
        let current = try await fixture.emulator.restore(deviceId: "tablet")
        #expect(Set(current.map(\.transactionId)) == Set([pack.transactionId, vip.transactionId].compactMap { $0 }))
        let reply = try await fixture.restore("alice", current.map(\.signedTransaction))
        #expect(reply.results.map(\.status) == ["already_owned", "already_owned"])
        #expect(Set(reply.entitlements.map(\.entitlementId)) == ["levelpack1", "vip"])
        #expect(reply.entitlements.allSatisfy { $0.entitled })
    }

    @Test(
        "a family member's shared copy entitles the member's player, and REVOKE ends it",
        arguments: StoreKind.allCases)
    func familySharing(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let pack = try await fixture.buy("alice", "levelpack1")
        let shared = try await fixture.emulator.familyShare(
            originalTransactionId: try #require(pack.transactionId), memberDeviceId: "kids-tablet")
        #expect(shared.inAppOwnershipType == .familyShared)
        await fixture.emulator.waitForNotificationDeliveries()
        #expect(try await fixture.entitlements("bob").isEmpty, "the notification alone names no player")
        let current = try await fixture.emulator.restore(deviceId: "kids-tablet")
        #expect(current.map(\.transactionId) == [shared.transactionId])
        let reply = try await fixture.restore("bob", current.map(\.signedTransaction))
        #expect(reply.results.map(\.status) == ["restored"])
        let copy = try await fixture.entitlement("bob", "levelpack1")
        #expect(copy.ownership == "FAMILY_SHARED")
        #expect(copy.originalTransactionId == shared.originalTransactionId)
        #expect(copy.entitled)
        #expect(try await fixture.entitlement("alice", "levelpack1").ownership == "PURCHASED")

        try await fixture.emulator.familyRevoke(transactionId: shared.transactionId)
        try await fixture.eventually("the revocation") {
            try await fixture.entitlement("bob", "levelpack1").state == "revoked"
        }
        #expect(!(try await fixture.entitlement("bob", "levelpack1").entitled))
        #expect(try await fixture.entitlement("alice", "levelpack1").entitled, "the purchaser keeps it")
    }
}
