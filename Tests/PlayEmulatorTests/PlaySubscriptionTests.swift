import Foundation
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Testing

/// Subscriptions on the Play side: renewals on the emulator's clock, cancel and expiry,
/// revocation, Google's three-day rule, and what is told of each.
@Suite struct PlaySubscriptionTests {
    static let month: TimeInterval = 30 * 86_400
    static let package = "com.example.game"

    /// A Play side whose "vip" and "vip.premium" renew monthly (with `gracePeriod`, none by
    /// default) and whose other products are one-time.
    static func emulator(
        clock: ManualClock, directory: URL? = nil, gracePeriod: TimeInterval? = nil
    ) throws -> (PlayEmulator, RecordingSink) {
        let play = try PlayEmulator(
            packageName: package, dataDirectory: try directory ?? PlayFixture.keyDirectory(), baseURL: nil,
            now: { clock.now },
            products: {
                ["vip", "vip.premium"].contains($0)
                    ? PlayProduct(
                        productId: $0, isOneTime: false, subscriptionPeriod: month, gracePeriod: gracePeriod)
                    : PlayProduct(productId: $0, isOneTime: true)
            })
        let sink = RecordingSink()
        play.attach(sink: sink)
        return (play, sink)
    }

    static func subscribe(_ play: PlayEmulator, device: String = "d") throws -> PlayDevicePurchaseResult {
        try play.purchase(deviceId: device, PlayDevicePurchaseRequest(productId: "vip", obfuscatedAccountId: "acct-1"))
    }

    /// Told subscription notification types, in order.
    static func told(_ play: PlayEmulator, _ sink: RecordingSink) async throws -> [Int] {
        await play.sendPendingNotifications()
        return try sink.notifications().compactMap(\.subscriptionNotification?.notificationType)
    }

    /// Each period's end renews an acknowledged subscription: a new order `…..N`, a later
    /// expiry, `SUBSCRIPTION_RENEWED`; the token stays.
    @Test func anAcknowledgedSubscriptionRenewsOnTheClock() async throws {
        let clock = ManualClock()
        let (play, sink) = try Self.emulator(clock: clock)
        let bought = try Self.subscribe(play)
        let start = clock.now
        try play.acknowledgeSubscription(
            packageName: Self.package, subscriptionId: "vip", token: bought.purchaseToken)
        let first = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(first.kind == "androidpublisher#subscriptionPurchaseV2")
        #expect(first.subscriptionState == "SUBSCRIPTION_STATE_ACTIVE")
        #expect(first.acknowledgementState == "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED")
        #expect(first.latestOrderId == bought.orderId)
        #expect(first.externalAccountIdentifiers?.obfuscatedExternalAccountId == "acct-1")
        #expect(first.lineItems.first?.autoRenewingPlan?.autoRenewEnabled == true)
        #expect(first.lineItems.first?.productId == "vip")

        clock.advance(by: Self.month * 2 + 1)
        let renewed = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(renewed.subscriptionState == "SUBSCRIPTION_STATE_ACTIVE")
        #expect(renewed.latestOrderId == bought.orderId + "..1")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let expiry = try #require(renewed.lineItems.first?.expiryTime.flatMap(formatter.date(from:)))
        #expect(abs(expiry.timeIntervalSince(start) - 3 * Self.month) < 0.01)
        #expect(try await Self.told(play, sink) == [4, 2, 2])
        // Bought once: the device cannot subscribe again while it holds it.
        #expect(throws: PlayEmulatorError.self) { try Self.subscribe(play) }
    }

    /// A canceled subscription stays usable until its expiry, does not renew, then expires;
    /// the device may subscribe again.
    @Test func aCanceledSubscriptionExpiresAtItsEnd() async throws {
        let clock = ManualClock()
        let (play, sink) = try Self.emulator(clock: clock)
        let bought = try Self.subscribe(play)
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .acknowledge)
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .cancel)
        let canceled = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(canceled.subscriptionState == "SUBSCRIPTION_STATE_CANCELED")
        #expect(canceled.lineItems.first?.autoRenewingPlan?.autoRenewEnabled == false)
        #expect(try play.devicePurchases(deviceId: "d").purchases.count == 1)

        clock.advance(by: Self.month + 1)
        let expired = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(expired.subscriptionState == "SUBSCRIPTION_STATE_EXPIRED")
        #expect(expired.latestOrderId == bought.orderId)
        #expect(try play.devicePurchases(deviceId: "d").purchases.isEmpty)
        #expect(try await Self.told(play, sink) == [4, 3, 13])
        #expect(throws: PlayEmulatorError.self) {
            _ = try play.control(deviceId: "d", token: bought.purchaseToken, .cancel)
        }
        _ = try Self.subscribe(play)
    }

    /// Not acknowledged within three days: Google refunds and revokes it; the void is a
    /// subscription's, listed with `type` 1 only, and told once.
    @Test func anUnacknowledgedSubscriptionIsRevokedAfterThreeDays() async throws {
        let clock = ManualClock()
        let (play, sink) = try Self.emulator(clock: clock)
        let bought = try Self.subscribe(play)
        clock.advance(by: 3 * 86_400)
        let read = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(read.subscriptionState == "SUBSCRIPTION_STATE_EXPIRED")
        #expect(try play.voidedPurchases(packageName: Self.package, .init(type: 0)).voidedPurchases == [])
        let voided = try play.voidedPurchases(packageName: Self.package, .init(type: 1)).voidedPurchases ?? []
        #expect(voided.map(\.orderId) == [bought.orderId])
        #expect(voided.first?.voidedSource == 2)
        #expect(voided.first?.voidedReason == 8)
        _ = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(try await Self.told(play, sink) == [4, 12])
        let void = try sink.notifications().compactMap(\.voidedPurchaseNotification)
        #expect(
            void == [
                VoidedPurchaseNotification(
                    purchaseToken: bought.purchaseToken, orderId: bought.orderId, productType: 1, refundType: 1)
            ])
        #expect(throws: GoogleErrorResponse.self) {
            try play.acknowledgeSubscription(
                packageName: Self.package, subscriptionId: "vip", token: bought.purchaseToken)
        }
    }

    /// `subscriptionsv2.revoke` ends it at once and voids its latest order, by the
    /// developer; it needs exactly one refund type, and a revoked one cannot be revoked again.
    @Test func revokeEndsItAndVoidsTheLatestOrder() async throws {
        let clock = ManualClock()
        let (play, sink) = try Self.emulator(clock: clock)
        let bought = try Self.subscribe(play)
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .acknowledge)
        clock.advance(by: Self.month + 1)
        for bad in [RevocationContext(), RevocationContext(fullRefund: [:], proratedRefund: [:])] {
            #expect(throws: GoogleErrorResponse.self) {
                try play.revokeSubscription(
                    packageName: Self.package, token: bought.purchaseToken,
                    RevokeSubscriptionPurchaseRequest(revocationContext: bad))
            }
        }
        try play.revokeSubscription(
            packageName: Self.package, token: bought.purchaseToken,
            RevokeSubscriptionPurchaseRequest(revocationContext: RevocationContext(proratedRefund: [:])))
        let revoked = try play.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        #expect(revoked.subscriptionState == "SUBSCRIPTION_STATE_EXPIRED")
        let voided = try play.voidedPurchases(packageName: Self.package, .init(type: 1)).voidedPurchases ?? []
        #expect(voided.map(\.orderId) == [bought.orderId + "..0"])
        #expect(voided.first?.voidedSource == 1)
        #expect(try await Self.told(play, sink) == [4, 2, 12])
        #expect(throws: GoogleErrorResponse.self) {
            try play.revokeSubscription(
                packageName: Self.package, token: bought.purchaseToken,
                RevokeSubscriptionPurchaseRequest(revocationContext: RevocationContext(fullRefund: [:])))
        }
    }

    /// The path's checks: another package, an unknown token, another subscription's id.
    @Test func thePublisherMethodsCheckThePath() throws {
        let clock = ManualClock()
        let (play, _) = try Self.emulator(clock: clock)
        let bought = try Self.subscribe(play)
        func reason(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch {
                return (error as? GoogleErrorResponse)?.error.errors?.first?.reason
            }
        }
        #expect(
            reason { _ = try play.subscriptionPurchase(packageName: "other", token: bought.purchaseToken) }
                == "applicationNotFound")
        #expect(reason { _ = try play.subscriptionPurchase(packageName: Self.package, token: "nope") } == "notFound")
        #expect(
            reason {
                try play.cancelSubscription(
                    packageName: Self.package, subscriptionId: "gold", token: bought.purchaseToken)
            } == "purchaseTokenDoesNotMatchProductId")
        // A one-time purchase's token is not a subscription's.
        let coins = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        #expect(
            reason { _ = try play.subscriptionPurchase(packageName: Self.package, token: coins.purchaseToken) }
                == "notFound")
        #expect(throws: PlayEmulatorError.self) {
            _ = try play.purchase(deviceId: "e", PlayDevicePurchaseRequest(productId: "vip", pending: true))
        }
    }

    /// Subscriptions are in `play-state.json`: a restart keeps their orders and state.
    @Test func subscriptionsSurviveARestart() throws {
        let clock = ManualClock()
        let directory = try PlayFixture.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (first, _) = try Self.emulator(clock: clock, directory: directory)
        let bought = try Self.subscribe(first)
        try first.cancelSubscription(packageName: Self.package, subscriptionId: "vip", token: bought.purchaseToken)
        let before = try first.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken)
        let (second, _) = try Self.emulator(clock: clock, directory: directory)
        #expect(try second.subscriptionPurchase(packageName: Self.package, token: bought.purchaseToken) == before)
    }
}
