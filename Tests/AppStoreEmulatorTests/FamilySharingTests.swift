import AppStoreEmulator
import AppStoreModel
import Foundation
import Testing

/// Family Sharing: a member's FAMILY_SHARED copy of a subscription or a non-consumable,
/// its renewals, and REVOKE when sharing stops.
struct FamilySharingTests {
    @Test func aSharedSubscriptionFollowsThePurchasersUntilRevoked() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        let token = UUID().uuidString.lowercased()
        let id = try #require(
            try await emulator.purchase(
                deviceId: "mum", PurchaseRequest(productId: "vip.monthly", appAccountToken: token)
            ).transactionId)
        _ = try await probe.next()

        let shared = try await emulator.familyShare(originalTransactionId: id, memberDeviceId: "kid")
        let told = try await probe.only()
        #expect(told.name == "SUBSCRIBED/INITIAL_BUY")
        let signed = try #require(told.transaction)
        #expect(signed.inAppOwnershipType == .familyShared)
        #expect(signed.transactionId == shared.transactionId && signed.transactionId != id)
        #expect(signed.originalTransactionId == shared.transactionId, "its own chain")
        #expect(signed.appAccountToken == nil)
        #expect(signed.productId == "vip.monthly")
        #expect(told.status == .active)
        #expect(
            try await emulator.unfinishedTransactions(deviceId: "kid").map(\.transactionId) == [shared.transactionId])
        #expect(try await emulator.restore(deviceId: "kid").map(\.transactionId) == [shared.transactionId])
        let twice = await #expect(throws: EmulatorError.self) {
            try await emulator.familyShare(originalTransactionId: id, memberDeviceId: "kid")
        }
        #expect(twice?.code == "already_shared")
        let own = await #expect(throws: EmulatorError.self) {
            try await emulator.familyShare(originalTransactionId: id, memberDeviceId: "mum")
        }
        #expect(own?.code == "same_apple_account")

        let renewal = try await emulator.renewSubscription(originalTransactionId: id)
        let renewed = try await probe.next()
        #expect(renewed.map(\.name) == ["DID_RENEW", "DID_RENEW"])
        #expect(renewed[0].transaction?.transactionId == renewal.transactionId)
        let memberRenewal = try #require(renewed[1].transaction)
        #expect(memberRenewal.inAppOwnershipType == .familyShared)
        #expect(memberRenewal.originalTransactionId == shared.transactionId)
        #expect(memberRenewal.expiresDate == renewal.expiresDate)
        #expect(memberRenewal.appAccountToken == nil)

        try await emulator.failRenewal(originalTransactionId: id, gracePeriod: true)
        #expect(
            try await probe.names() == ["DID_FAIL_TO_RENEW/GRACE_PERIOD", "DID_FAIL_TO_RENEW/GRACE_PERIOD"],
            "the member's copy is in grace too")
        try await emulator.recoverSubscription(originalTransactionId: id)
        _ = try await probe.next()

        let memberLatest = try #require(
            try await emulator.subscription(shared.transactionId).latestTransactionId as String?)
        try await emulator.familyRevoke(transactionId: memberLatest)
        let revoke = try await probe.only()
        #expect(revoke.name == "REVOKE")
        #expect(revoke.status == .revoked)
        #expect(revoke.transaction?.revocationType == .familyRevoke)
        #expect(revoke.transaction?.inAppOwnershipType == .familyShared)
        #expect(try await emulator.subscriptionStatus(shared.transactionId) == .revoked)
        #expect(try await emulator.restore(deviceId: "kid").isEmpty)

        try await emulator.renewSubscription(originalTransactionId: id)
        #expect(try await probe.names() == ["DID_RENEW"], "a revoked member no longer renews")
    }

    @Test func aSharedNonConsumableIsAOneTimeChargeOnTheMembersDevice() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        let pack = try #require(
            try await emulator.purchase(deviceId: "mum", PurchaseRequest(productId: "levelpack1")).transactionId)
        let coins = try #require(
            try await emulator.purchase(deviceId: "mum", PurchaseRequest(productId: "coins100")).transactionId)
        _ = try await probe.next()

        let shared = try await emulator.familyShare(originalTransactionId: pack, memberDeviceId: "kid")
        let told = try await probe.only()
        #expect(told.name == "ONE_TIME_CHARGE")
        #expect(told.transaction?.inAppOwnershipType == .familyShared)
        #expect(told.transaction?.originalTransactionId == shared.transactionId)
        #expect(told.renewal == nil && told.status == nil)
        let consumable = await #expect(throws: EmulatorError.self) {
            try await emulator.familyShare(originalTransactionId: coins, memberDeviceId: "kid")
        }
        #expect(consumable?.code == "not_family_shareable")
        let copy = await #expect(throws: EmulatorError.self) {
            try await emulator.familyShare(originalTransactionId: shared.transactionId, memberDeviceId: "dad")
        }
        #expect(copy?.code == "not_family_shareable", "a member cannot share on")

        try await emulator.familyRevoke(transactionId: shared.transactionId)
        #expect(try await probe.names() == ["REVOKE"])
        #expect(try await emulator.restore(deviceId: "kid").isEmpty)
        #expect(try await emulator.restore(deviceId: "mum").map(\.transactionId) == [pack], "the purchaser keeps it")
    }
}

extension FamilySharingTests {
    @Test func aSharedPurchaseTakesNoAppAccountTokenAndARenewalKeepsTheSetOne() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        let id = try #require(
            try await emulator.purchase(deviceId: "mum", PurchaseRequest(productId: "vip.monthly")).transactionId)
        let shared = try await emulator.familyShare(originalTransactionId: id, memberDeviceId: "kid")
        let refused = await #expect(throws: APIError.self) {
            try await emulator.setAppAccountToken(shared.transactionId, UUID().uuidString, environment: .sandbox)
        }
        #expect(refused?.body.errorCode == .familyTransactionNotSupported && refused?.status == 400)

        let renewal = try await emulator.renewSubscription(originalTransactionId: id)
        let token = UUID().uuidString.lowercased()
        try await emulator.setAppAccountToken(id, token, environment: .sandbox)
        let next = try await emulator.renewSubscription(originalTransactionId: id)
        let ledger = await emulator.ledger()
        #expect(ledger.first { $0.transactionId == renewal.transactionId }?.appAccountToken == token)
        #expect(next.appAccountToken == token, "the next renewal carries it on")
        #expect(ledger.first { $0.transactionId == id }?.appAccountToken == nil, "past periods keep theirs")
    }
}
