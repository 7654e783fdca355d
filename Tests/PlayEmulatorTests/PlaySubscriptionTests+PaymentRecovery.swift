import Foundation
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Testing

/// A renewal whose payment is declined, as Google documents it: the grace period, the
/// account hold, expiry at the hold's end, or recovery with a new order.
extension PlaySubscriptionTests {
    static let week: TimeInterval = 7 * 86_400

    static func expiry(_ subscription: SubscriptionPurchaseV2) throws -> Date {
        try #require(subscription.lineItems.first?.expiryDate)
    }

    /// Declined at the period's end: in its grace period (access kept, the expiry moved to
    /// the grace period's end), then on hold (no access), then expired at the hold's end.
    @Test func aDeclinedRenewalGoesThroughGraceAndHoldToExpiry() async throws {
        let clock = ManualClock()
        let (play, sink) = try Self.emulator(clock: clock, gracePeriod: Self.week)
        let bought = try Self.subscribe(play)
        let start = clock.now
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .acknowledge)
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .declinePayment)
        clock.advance(by: Self.month - 1)
        #expect(
            try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken).subscriptionState
                == SubscriptionState.active)

        clock.advance(by: 2)
        let grace = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(grace.subscriptionState == SubscriptionState.inGracePeriod)
        #expect(grace.latestOrderId == bought.orderId, "no new order is paid")
        #expect(abs(try Self.expiry(grace).timeIntervalSince(start) - (Self.month + Self.week)) < 0.01)
        #expect(try play.devicePurchases(deviceId: "d").purchases.count == 1)

        clock.advance(by: Self.week)
        let hold = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(hold.subscriptionState == SubscriptionState.onHold)
        #expect(try play.devicePurchases(deviceId: "d").purchases.isEmpty, "no access on hold")

        clock.advance(by: 30 * 86_400)
        let expired = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(expired.subscriptionState == SubscriptionState.expired)
        #expect(expired.lineItems.first?.autoRenewingPlan?.autoRenewEnabled == false)
        #expect(try await Self.told(play, sink) == [4, 6, 5, 13])
        #expect(throws: PlayEmulatorError.self) {
            _ = try play.control(deviceId: "d", token: bought.purchaseToken, .fixPayment)
        }
    }

    /// Fixed during the grace period: charged at once, a new order, active until a period
    /// after the failed renewal's date; it renews on that cycle afterwards.
    @Test func aPaymentFixedInGraceRecoversOnItsCycle() async throws {
        let clock = ManualClock()
        let (play, sink) = try Self.emulator(clock: clock, gracePeriod: Self.week)
        let bought = try Self.subscribe(play)
        let start = clock.now
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .acknowledge)
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .declinePayment)
        clock.advance(by: Self.month + 86_400)
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .fixPayment)
        let recovered = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(recovered.subscriptionState == SubscriptionState.active)
        #expect(recovered.latestOrderId == bought.orderId + "..0")
        #expect(abs(try Self.expiry(recovered).timeIntervalSince(start) - 2 * Self.month) < 0.01)

        clock.advance(by: Self.month)
        let renewed = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(renewed.latestOrderId == bought.orderId + "..1")
        #expect(try await Self.told(play, sink) == [4, 6, 1, 2])
    }

    /// Without a grace period a declined renewal goes on hold at once; fixed there, a new
    /// period starts now.
    @Test func aPaymentFixedOnHoldStartsANewPeriod() async throws {
        let clock = ManualClock()
        let (play, sink) = try Self.emulator(clock: clock)
        let bought = try Self.subscribe(play)
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .acknowledge)
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .declinePayment)
        clock.advance(by: Self.month + 86_400)
        #expect(
            try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken).subscriptionState
                == SubscriptionState.onHold)
        let fixedAt = clock.now
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .fixPayment)
        let recovered = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(recovered.subscriptionState == SubscriptionState.active)
        #expect(recovered.latestOrderId == bought.orderId + "..0")
        #expect(abs(try Self.expiry(recovered).timeIntervalSince(fixedAt) - Self.month) < 0.01)
        #expect(try await Self.told(play, sink) == [4, 5, 1])
        // A one-time purchase has no payment to decline.
        let coins = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins"))
        #expect(throws: PlayEmulatorError.self) {
            _ = try play.control(deviceId: "d", token: coins.purchaseToken, .declinePayment)
        }
    }
}
