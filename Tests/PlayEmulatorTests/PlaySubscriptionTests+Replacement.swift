import Foundation
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Testing

/// A device purchase replacing a subscription (Google's upgrade and downgrade, a mode that
/// takes effect at once): a new token naming the old in `linkedPurchaseToken`, the old one
/// ended.
extension PlaySubscriptionTests {
    static func replace(
        _ play: PlayEmulator, _ old: String, with productId: String = "vip.premium", device: String = "d",
        mode: Int? = nil
    ) throws -> PlayDevicePurchaseResult {
        try play.purchase(
            deviceId: device,
            PlayDevicePurchaseRequest(
                productId: productId, obfuscatedAccountId: "acct-1", oldPurchaseToken: old,
                subscriptionReplacementMode: mode))
    }

    /// The upgrade: the new token names the old one, the old one expires at once and
    /// renews no more, the device holds the new one only, and each is told.
    @Test func anUpgradeLinksTheNewTokenAndEndsTheOld() async throws {
        let clock = ManualClock()
        let (play, sink) = try Self.emulator(clock: clock)
        let old = try Self.subscribe(play)
        _ = try play.control(deviceId: "d", token: old.purchaseToken, .acknowledge)
        clock.advance(by: 86_400)
        let new = try Self.replace(play, old.purchaseToken, mode: PlaySubscriptionReplacementMode.chargeFullPrice)
        #expect(new.purchaseToken != old.purchaseToken)
        #expect(new.orderId != old.orderId)

        let upgraded = try play.subscriptionPurchase(packageName: Self.package, token: new.purchaseToken)
        #expect(upgraded.linkedPurchaseToken == old.purchaseToken)
        #expect(upgraded.subscriptionState == SubscriptionState.active)
        #expect(upgraded.lineItems.first?.productId == "vip.premium")
        let replaced = try play.subscriptionPurchase(packageName: Self.package, token: old.purchaseToken)
        #expect(replaced.linkedPurchaseToken == nil)
        #expect(replaced.subscriptionState == SubscriptionState.expired)
        #expect(replaced.lineItems.first?.autoRenewingPlan?.autoRenewEnabled == false)
        #expect(abs(try Self.expiry(replaced).timeIntervalSince(clock.now)) < 0.01)
        #expect(try play.devicePurchases(deviceId: "d").purchases.map(\.purchaseToken) == [new.purchaseToken])

        await play.sendPendingNotifications()
        let told = try sink.notifications().compactMap(\.subscriptionNotification).map {
            ($0.notificationType, $0.purchaseToken)
        }
        #expect(told.map(\.0) == [4, 13, 4])
        #expect(told.map(\.1) == [old.purchaseToken, old.purchaseToken, new.purchaseToken])

        // The old token renews no more; the new one does.
        _ = try play.control(deviceId: "d", token: new.purchaseToken, .acknowledge)
        clock.advance(by: Self.month)
        #expect(
            try play.subscriptionPurchase(packageName: Self.package, token: old.purchaseToken).latestOrderId
                == old.orderId)
        #expect(
            try play.subscriptionPurchase(packageName: Self.package, token: new.purchaseToken).latestOrderId
                == new.orderId + "..0")
    }

    /// Re-subscribing to the same product over a canceled, unexpired subscription is a
    /// replacement too (the absent mode is `WITH_TIME_PRORATION`): not `item_already_owned`.
    /// The link survives a restart.
    @Test func aResubscriptionReplacesACanceledSubscription() throws {
        let clock = ManualClock()
        let directory = try PlayFixture.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (play, _) = try Self.emulator(clock: clock, directory: directory)
        let old = try Self.subscribe(play)
        _ = try play.control(deviceId: "d", token: old.purchaseToken, .cancel)
        let new = try Self.replace(play, old.purchaseToken, with: "vip")
        let resubscribed = try play.subscriptionPurchase(packageName: Self.package, token: new.purchaseToken)
        #expect(resubscribed.linkedPurchaseToken == old.purchaseToken)
        #expect(resubscribed.lineItems.first?.autoRenewingPlan?.autoRenewEnabled == true)
        #expect(
            try play.subscriptionPurchase(packageName: Self.package, token: old.purchaseToken).subscriptionState
                == SubscriptionState.expired)

        let (restarted, _) = try Self.emulator(clock: clock, directory: directory)
        #expect(
            try restarted.subscriptionPurchase(packageName: Self.package, token: new.purchaseToken)
                == resubscribed)
    }

    /// What cannot be replaced is refused with a stable code, and nothing changes.
    @Test func aReplacementThatCannotBeIsRefused() throws {
        let clock = ManualClock()
        let (play, _) = try Self.emulator(clock: clock)
        let old = try Self.subscribe(play)
        let other = try Self.subscribe(play, device: "e")
        func code(_ body: () throws -> PlayDevicePurchaseResult) -> String? {
            do {
                _ = try body()
                return nil
            } catch let error as PlayEmulatorError {
                return error.code
            } catch {
                return "\(error)"
            }
        }
        #expect(
            code { try Self.replace(play, old.purchaseToken, mode: PlaySubscriptionReplacementMode.deferred) }
                == "invalid_request")
        #expect(code { try Self.replace(play, old.purchaseToken, mode: 4) } == "invalid_request")
        #expect(
            code {
                try play.purchase(
                    deviceId: "d", PlayDevicePurchaseRequest(productId: "vip.premium", subscriptionReplacementMode: 1))
            } == "invalid_request")
        #expect(code { try Self.replace(play, old.purchaseToken, with: "coins") } == "invalid_request")
        #expect(code { try Self.replace(play, "no-such-token") } == "unknown_purchase")
        #expect(code { try Self.replace(play, other.purchaseToken) } == "unknown_purchase")
        #expect(
            try play.subscriptionPurchase(packageName: Self.package, token: old.purchaseToken).subscriptionState
                == SubscriptionState.active)

        _ = try play.control(deviceId: "d", token: old.purchaseToken, .cancel)
        clock.advance(by: Self.month + 1)
        #expect(code { try Self.replace(play, old.purchaseToken) } == "invalid_purchase_state")
    }
}
