import AppStoreEmulator
import AppStoreModel
import Foundation
import Testing

/// Review mends to the subscription code: revoking a renewed family member's copy, a chain
/// that cannot move not stopping the renewal clock, and periods and scales refused at start.
struct SubscriptionRobustnessTests {
    @Test func revokingARenewedMembersFirstTransactionRevokesItsChain() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        let id = try #require(
            try await emulator.purchase(deviceId: "mum", PurchaseRequest(productId: "vip.monthly")).transactionId)
        let shared = try await emulator.familyShare(originalTransactionId: id, memberDeviceId: "kid")
        try await emulator.renewSubscription(originalTransactionId: id)
        #expect(try await probe.next().suffix(2).map(\.name) == ["DID_RENEW", "DID_RENEW"], "the member renews too")
        let memberLatest = try await emulator.subscription(shared.transactionId).latestTransactionId
        #expect(memberLatest != shared.transactionId)

        let revoked = try await emulator.familyRevoke(transactionId: shared.transactionId)
        #expect(revoked.transactionId == memberLatest, "the member chain's latest transaction is revoked")
        let revoke = try await probe.only()
        #expect(revoke.name == "REVOKE")
        #expect(revoke.transaction?.transactionId == memberLatest)
        #expect(revoke.transaction?.revocationType == .familyRevoke)
        #expect(revoke.status == .revoked)
        #expect(try await emulator.subscriptionStatus(shared.transactionId) == .revoked)
        #expect(try await emulator.restore(deviceId: "kid").isEmpty)

        try await emulator.renewSubscription(originalTransactionId: id)
        #expect(try await probe.names() == ["DID_RENEW"], "the revoked member no longer renews")

        let again = try await emulator.familyShare(originalTransactionId: id, memberDeviceId: "kid")
        #expect(again.transactionId != shared.transactionId)
        #expect(try await probe.names() == ["SUBSCRIBED/INITIAL_BUY"], "sharing again works")
    }

    @Test func aChainThatCannotRenewDoesNotStopTheOthers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-\(UUID().uuidString)")
        let before = try await EmulatorFixture(directory: directory, catalog: EmulatorFixture.twoGroupCatalog)
        defer { before.remove() }
        // The first chain renews to club.monthly, which the catalog then loses.
        let club = try #require(
            try await before.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "club.monthly"))
                .transactionId)
        let vip = try #require(
            try await before.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly"))
                .transactionId)
        await before.emulator.shutdown()

        let fixture = try await EmulatorFixture(directory: directory)
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        _ = try await probe.next()
        let end = try #require(
            await emulator.ledger().first { $0.transactionId == vip }?.expiresDate)
        let now = Date(timeIntervalSince1970: Double(end + 60_000) / 1000)
        #expect(try await emulator.processDueSubscriptions(now: now) == 1)
        let renewed = try await probe.only()
        #expect(renewed.name == "DID_RENEW")
        #expect(renewed.transaction?.originalTransactionId == vip)
        #expect(try await emulator.subscription(club).latestTransactionId == club, "the bad chain stays as it was")
        await emulator.shutdown()
    }

    @Test(arguments: [
        (0.0, Int64?.none, Int64?.none), (2.0, nil, nil), (Double.infinity, nil, nil), (Double.nan, nil, nil),
        (1.0, 0, nil), (1.0, -86_400, nil), (1.0, 11 * 365 * 86_400, nil), (1.0, Int64.max, nil),
        (1.0, nil, 0), (1.0, nil, -1), (1.0, nil, Int64.max),
    ])
    func periodsAndScalesThatCannotBeRepresentedAreRefusedAtStart(
        scale: Double, period: Int64?, grace: Int64?
    ) async throws {
        let catalog = EmulatorCatalog(
            products: EmulatorCatalog.sample.products + [
                EmulatorProduct(
                    productId: "odd.period", type: .autoRenewable, price: 990, subscriptionGroupIdentifier: "20000009",
                    subscriptionPeriodSeconds: period, gracePeriodSeconds: grace)
            ])
        let refused = await #expect(throws: EmulatorError.self) {
            let fixture = try await EmulatorFixture(catalog: catalog, subscriptionTimeScale: scale)
            fixture.remove()
        }
        #expect(refused?.code == "invalid_configuration")
    }

    @Test(arguments: [0, 1_001, Int.min])
    func groupLevelsOutsideTheRangeAreRefusedAtStart(level: Int) async throws {
        let catalog = EmulatorCatalog(
            products: EmulatorCatalog.sample.products + [
                EmulatorProduct(
                    productId: "odd.level", type: .autoRenewable, price: 990, subscriptionGroupIdentifier: "20000009",
                    subscriptionGroupLevel: level)
            ])
        let refused = await #expect(throws: EmulatorError.self) {
            let fixture = try await EmulatorFixture(catalog: catalog)
            fixture.remove()
        }
        #expect(refused?.code == "invalid_configuration")
        #expect(refused?.message.contains("subscriptionGroupLevel must be 1 to 1000") == true)
    }

    @Test func tenYearPeriodsOnTheFullScaleAreAccepted() async throws {
        let catalog = EmulatorCatalog(
            products: EmulatorCatalog.sample.products + [
                EmulatorProduct(
                    productId: "decade", type: .autoRenewable, price: 990, subscriptionGroupIdentifier: "20000009",
                    subscriptionPeriodSeconds: 3_652 * 86_400, gracePeriodSeconds: 3_652 * 86_400)
            ])
        let fixture = try await EmulatorFixture(catalog: catalog, subscriptionTimeScale: 1)
        defer { fixture.remove() }
        let bought = try await fixture.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "decade"))
        #expect(bought.transactionId != nil)
    }
}
