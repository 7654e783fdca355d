import Foundation
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Testing

@Suite struct PlayThreeDayRuleTests {
    static let days3: TimeInterval = 3 * 86_400

    static func emulator(clock: ManualClock, periodScale: Double = 1) throws -> PlayEmulator {
        try PlayEmulator(
            packageName: "com.example.game", dataDirectory: try PlayFixture.keyDirectory(), baseURL: nil,
            periodScale: periodScale, now: { clock.now }, products: { PlayProduct(productId: $0, isOneTime: true) })
    }

    /// Unacknowledged for three days: refunded, revoked and voided by Google for reason 8,
    /// at the moment the window closed; the device can buy the product again.
    @Test func anUnacknowledgedPurchaseIsVoidedAfterThreeDays() throws {
        let clock = ManualClock()
        let play = try Self.emulator(clock: clock)
        let bought = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        let purchasedAt = clock.now
        clock.advance(by: Self.days3 - 1)
        #expect(
            try play.productPurchase(
                packageName: "com.example.game", productId: "coins100", token: bought.purchaseToken
            )
            .purchaseState == 0)
        #expect(try play.voidedPurchases(packageName: "com.example.game", .init()).voidedPurchases == [])
        clock.advance(by: 1)
        let read = try play.productPurchase(
            packageName: "com.example.game", productId: "coins100", token: bought.purchaseToken)
        #expect(read.purchaseState == 1)
        #expect(read.refundableQuantity == 0)
        let voided = try play.voidedPurchases(packageName: "com.example.game", .init()).voidedPurchases ?? []
        #expect(
            voided == [
                VoidedPurchase(
                    purchaseToken: bought.purchaseToken,
                    purchaseTimeMillis: String(Int64(purchasedAt.timeIntervalSince1970 * 1000)),
                    voidedTimeMillis: String(Int64((purchasedAt.timeIntervalSince1970 + Self.days3) * 1000)),
                    orderId: bought.orderId, voidedSource: 2, voidedReason: 8)
            ])
        // Acknowledging it now is too late.
        #expect(throws: GoogleErrorResponse.self) {
            try play.acknowledge(
                packageName: "com.example.game", productId: "coins100", token: bought.purchaseToken,
                developerPayload: nil)
        }
        #expect(try play.devicePurchases(deviceId: "d").purchases.isEmpty)
        _ = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        // Read again later, the purchase is voided once.
        clock.advance(by: Self.days3 / 2)
        #expect(try play.voidedPurchases(packageName: "com.example.game", .init()).voidedPurchases?.count == 1)
    }

    /// Acknowledged (on the server or the device) or consumed in time: never voided.
    @Test func anAcknowledgedOrConsumedPurchaseStays() throws {
        let clock = ManualClock()
        let play = try Self.emulator(clock: clock)
        let served = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "a"))
        let device = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "b"))
        let consumed = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "c"))
        clock.advance(by: Self.days3 - 60)
        try play.acknowledge(
            packageName: "com.example.game", productId: "a", token: served.purchaseToken, developerPayload: nil)
        _ = try play.control(deviceId: "d", token: device.purchaseToken, .acknowledge)
        try play.consume(packageName: "com.example.game", productId: "c", token: consumed.purchaseToken)
        clock.advance(by: Self.days3 * 10)
        for (product, token) in [
            ("a", served.purchaseToken), ("b", device.purchaseToken), ("c", consumed.purchaseToken),
        ] {
            #expect(
                try play.productPurchase(packageName: "com.example.game", productId: product, token: token)
                    .purchaseState == 0)
        }
        #expect(try play.voidedPurchases(packageName: "com.example.game", .init()).voidedPurchases == [])
    }

    /// A pending purchase has no deadline; its three days start when the payment completes.
    @Test func theWindowOfAPendingPurchaseStartsAtCompletion() throws {
        let clock = ManualClock()
        let play = try Self.emulator(clock: clock)
        let bought = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "gems", pending: true))
        clock.advance(by: Self.days3 * 2)
        #expect(
            try play.productPurchase(packageName: "com.example.game", productId: "gems", token: bought.purchaseToken)
                .purchaseState == 2)
        _ = try play.control(deviceId: "d", token: bought.purchaseToken, .complete)
        let completedAt = clock.now
        clock.advance(by: Self.days3 - 1)
        #expect(
            try play.productPurchase(packageName: "com.example.game", productId: "gems", token: bought.purchaseToken)
                .purchaseState == 0)
        clock.advance(by: 1)
        #expect(
            try play.productPurchase(packageName: "com.example.game", productId: "gems", token: bought.purchaseToken)
                .purchaseState == 1)
        let voided = try #require(
            try play.voidedPurchases(packageName: "com.example.game", .init()).voidedPurchases?.first)
        #expect(voided.voidedTimeMillis == String(Int64((completedAt.timeIntervalSince1970 + Self.days3) * 1000)))
    }

    /// The period scale shortens the window: 1/8640 makes three days 30 seconds.
    @Test func thePeriodScaleShortensTheWindow() throws {
        let clock = ManualClock()
        let play = try Self.emulator(clock: clock, periodScale: 1.0 / 8640)
        #expect(play.acknowledgementWindow == 30)
        let bought = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        clock.advance(by: 29)
        #expect(try play.devicePurchases(deviceId: "d").purchases.count == 1)
        clock.advance(by: 1)
        #expect(try play.devicePurchases(deviceId: "d").purchases.isEmpty)
        #expect(
            try play.voidedPurchases(packageName: "com.example.game", .init()).voidedPurchases?.first?.purchaseToken
                == bought.purchaseToken)
    }

    /// The list filters on when a record was made: a window before it lists nothing, and
    /// records older than 30 days drop out of the default window.
    @Test func theListFiltersOnRecordTime() throws {
        let clock = ManualClock()
        let play = try Self.emulator(clock: clock)
        let bought = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        try play.refund(packageName: "com.example.game", orderId: bought.orderId, revoke: true)
        let refundedAt = Int64(clock.now.timeIntervalSince1970 * 1000)
        clock.advance(by: 60)
        let before = VoidedPurchasesQuery(startTime: refundedAt - 10_000, endTime: refundedAt - 1)
        #expect(try play.voidedPurchases(packageName: "com.example.game", before).voidedPurchases == [])
        let around = VoidedPurchasesQuery(startTime: refundedAt, endTime: refundedAt)
        #expect(try play.voidedPurchases(packageName: "com.example.game", around).voidedPurchases?.count == 1)
        clock.advance(by: 31 * 86_400)
        #expect(try play.voidedPurchases(packageName: "com.example.game", .init()).voidedPurchases == [])
    }
}
