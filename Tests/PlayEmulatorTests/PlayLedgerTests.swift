import Foundation
import LedgerTestSupport
import PlayEmulator
import Testing

/// The Play side's ledger: every one-time purchase with whether it was paid, is pending, was
/// refunded and was acknowledged, after Google's three-day rule.
@Suite struct PlayLedgerTests {
    @Test func eachPurchaseIsListedAsGoogleHoldsIt() throws {
        let clock = ManualClock()
        let play = try PlayThreeDayRuleTests.emulator(clock: clock)
        let paid = try play.purchase(
            deviceId: "d", PlayDevicePurchaseRequest(productId: "a", obfuscatedAccountId: "order-a", quantity: 2))
        let pending = try play.purchase(
            deviceId: "d", PlayDevicePurchaseRequest(productId: "b", obfuscatedAccountId: "order-b", pending: true))
        let canceled = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "c", pending: true))
        let refunded = try play.purchase(deviceId: "e", PlayDevicePurchaseRequest(productId: "d"))
        let consumed = try play.purchase(deviceId: "e", PlayDevicePurchaseRequest(productId: "e"))
        _ = try play.control(deviceId: "d", token: canceled.purchaseToken, .cancel)
        _ = try play.control(deviceId: "e", token: refunded.purchaseToken, .refund)
        _ = try play.control(deviceId: "e", token: consumed.purchaseToken, .consume)

        let ledger = Dictionary(uniqueKeysWithValues: try play.ledger().map { ($0.orderId, $0) })
        #expect(ledger.count == 5)
        let first = try #require(ledger[paid.orderId])
        #expect(first.purchaseToken == paid.purchaseToken)
        #expect(first.productId == "a" && first.deviceId == "d" && first.quantity == 2)
        #expect(first.obfuscatedAccountId == "order-a")
        #expect(first.paidTime == clock.now && first.paid && !first.pending && !first.refunded && !first.acknowledged)
        let waiting = try #require(ledger[pending.orderId])
        #expect(!waiting.paid && waiting.pending && waiting.paidTime == nil)
        let gone = try #require(ledger[canceled.orderId])
        #expect(!gone.paid && !gone.pending && !gone.refunded)
        #expect(ledger[refunded.orderId]?.refunded == true)
        #expect(ledger[consumed.orderId]?.acknowledged == true)

        // Past three days the paid, unacknowledged purchase is refunded by Google's rule.
        clock.advance(by: PlayThreeDayRuleTests.days3)
        let later = Dictionary(uniqueKeysWithValues: try play.ledger().map { ($0.orderId, $0) })
        #expect(later[paid.orderId]?.refunded == true)
        #expect(later[consumed.orderId]?.refunded == false)
    }
}
