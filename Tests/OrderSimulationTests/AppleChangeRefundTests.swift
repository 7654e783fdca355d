import AppStoreEmulator
import Foundation
import Ledger
import Testing

@testable import OrderSimulation

/// The entitlement lag covers a REFUND of a chain's latest transaction (the ledger's
/// entitlement becomes `refunded`), and not a refund of an earlier period.
@Suite struct AppleChangeRefundTests {
    private func transaction(_ id: String, purchase: Int64) throws -> EmulatedTransaction {
        let json = """
            {"transactionId": "\(id)", "originalTransactionId": "chain", "deviceId": "phone",
             "productId": "vip.monthly", "type": "Auto-Renewable Subscription", "quantity": 1,
             "environment": "Sandbox", "purchaseDate": \(purchase), "expiresDate": \(purchase + 1000),
             "orderId": "order-\(id)", "price": 999, "currency": "USD", "finished": true,
             "refundState": "refunded"}
            """
        return try JSONDecoder().decode(EmulatedTransaction.self, from: Data(json.utf8))
    }

    private func refund(of id: String, signed: Int64) throws -> EmulatedNotification {
        let json = """
            {"notificationUUID": "n-\(id)", "notificationType": "REFUND", "environment": "Sandbox",
             "transactionId": "\(id)", "signedPayload": "", "signedDate": \(signed), "attempts": []}
            """
        return try JSONDecoder().decode(EmulatedNotification.self, from: Data(json.utf8))
    }

    @Test func aRefundOfTheLatestTransactionIsExpectedToRefundTheEntitlement() throws {
        let first = try transaction("t1", purchase: 1_000)
        let second = try transaction("t2", purchase: 2_000)
        let all = [first, second]
        let latestRefund = try refund(of: "t2", signed: 2_500)
        let change = Judge.change(
            latestRefund, transaction: second, holder: "ann",
            latest: Judge.isLatest(second, at: latestRefund.signedDate, among: all))
        #expect(change?.expectedState == .refunded)
        #expect(change?.playerId == "ann")

        // A refund of the first period, signed after the renewal, changes no state.
        let earlierRefund = try refund(of: "t1", signed: 2_500)
        #expect(!Judge.isLatest(first, at: earlierRefund.signedDate, among: all))
        #expect(
            Judge.change(
                earlierRefund, transaction: first, holder: "ann",
                latest: Judge.isLatest(first, at: earlierRefund.signedDate, among: all)) == nil)
        // Signed before the renewal, it was the latest then.
        #expect(Judge.isLatest(first, at: 1_500, among: all))
    }
}
