import AppStoreEmulator
import AppStoreModel
import Foundation
import Testing

/// Restore: a device signed in to an Apple account gets the account's non-consumables and
/// the current transaction of each subscription chain, never consumables or what was
/// refunded.
struct RestoreTests {
    @Test func aSecondDeviceOnTheSameAccountRestoresWhatTheAccountOwns() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        func buy(_ product: String) async throws -> String {
            try #require(
                try await emulator.purchase(deviceId: "phone", PurchaseRequest(productId: product)).transactionId)
        }
        let pack = try await buy("levelpack1")
        _ = try await buy("coins100")
        _ = try await buy("seasonpass")
        let vip = try await buy("vip.monthly")
        let renewal = try await emulator.renewSubscription(originalTransactionId: vip)

        #expect(try await emulator.restore(deviceId: "tablet").isEmpty, "another account owns nothing")
        let tablet = try await emulator.updateDevice("tablet", settings: DeviceSettings(appleAccount: "phone"))
        #expect(tablet.appleAccount == "phone")
        let restored = try await emulator.restore(deviceId: "tablet")
        #expect(restored.map(\.transactionId) == [pack, renewal.transactionId])
        #expect(restored.map(\.productId) == ["levelpack1", "vip.monthly"])
        let verifier = SubscriptionProbe(emulator).verifier
        let signed = try await verifier.verifyTransaction(restored[1].signedTransaction)
        #expect(signed.originalTransactionId == vip)

        let again = await #expect(throws: EmulatorError.self) {
            try await emulator.purchase(deviceId: "tablet", PurchaseRequest(productId: "vip.premium"))
        }
        #expect(again?.code == "already_subscribed", "the account subscribes already")
        try await emulator.setAutoRenew(deviceId: "tablet", originalTransactionId: vip, enabled: false)
        #expect(try await emulator.subscription(vip).autoRenewEnabled == false, "the account's devices manage it")

        try await emulator.refund(transactionId: pack)
        #expect(try await emulator.restore(deviceId: "tablet").map(\.transactionId) == [renewal.transactionId])
        try await emulator.expireSubscription(originalTransactionId: vip)
        #expect(
            try await emulator.restore(deviceId: "tablet").map(\.transactionId) == [renewal.transactionId],
            "an expired chain's latest transaction is still current")
        let empty = await #expect(throws: EmulatorError.self) {
            try await emulator.updateDevice("tablet", settings: DeviceSettings(appleAccount: ""))
        }
        #expect(empty?.code == "invalid_apple_account")
    }
}
