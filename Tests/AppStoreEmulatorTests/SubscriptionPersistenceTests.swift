import AppStoreEmulator
import AppStoreModel
import Foundation
import Testing

/// A restart on the same data directory keeps subscription chains, accounts and family
/// shares, and the lifecycle goes on from where it was.
struct SubscriptionPersistenceTests {
    @Test func aRestartKeepsChainsAccountsAndShares() async throws {
        let first = try await EmulatorFixture()
        defer { first.remove() }
        let emulator = first.emulator
        let id = try #require(
            try await emulator.purchase(deviceId: "mum", PurchaseRequest(productId: "vip.monthly")).transactionId)
        try await emulator.renewSubscription(originalTransactionId: id)
        try await emulator.changeSubscription(deviceId: "mum", originalTransactionId: id, productId: "vip.premium")
        try await emulator.setAutoRenew(deviceId: "mum", originalTransactionId: id, enabled: false)
        try await emulator.setAutoRenew(deviceId: "mum", originalTransactionId: id, enabled: true)
        let shared = try await emulator.familyShare(originalTransactionId: id, memberDeviceId: "kid")
        try await emulator.failRenewal(originalTransactionId: id, gracePeriod: true)
        try await emulator.updateDevice("tablet", settings: DeviceSettings(appleAccount: "mum", billingFails: true))
        let chain = try await emulator.subscription(id)
        let member = try await emulator.subscription(shared.transactionId)
        let restored = try await emulator.restore(deviceId: "tablet")
        let ledger = await emulator.ledger()
        await emulator.shutdown()

        let second = try await EmulatorFixture(directory: first.directory)
        let again = second.emulator
        #expect(try await again.subscription(id) == chain)
        #expect(chain.billing == .gracePeriod && chain.productId == "vip.premium")
        #expect(try await again.subscription(shared.transactionId) == member)
        #expect(try await again.subscriptionStatus(id) == .billingGracePeriod)
        #expect(await again.ledger() == ledger)
        #expect(await again.device("tablet").appleAccount == "mum")
        #expect(await again.device("tablet").billingFails)
        #expect(try await again.restore(deviceId: "tablet").map(\.transactionId) == restored.map(\.transactionId))

        var probe = SubscriptionProbe(again)
        _ = try await probe.next()
        try await again.recoverSubscription(originalTransactionId: id)
        #expect(try await probe.names() == ["DID_RENEW/BILLING_RECOVERY", "DID_RENEW/BILLING_RECOVERY"])
        #expect(try await again.subscriptionStatus(shared.transactionId) == .active)
        await again.shutdown()
    }
}
