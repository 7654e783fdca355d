import AppStoreModel
import Foundation
import Testing

@testable import AppStoreEmulator

/// The status a chain reads between its period's end and the renewal clock's decision.
struct SubscriptionStatusClockTests {
    @Test func aPeriodOverBeforeTheRenewalClockRunsIsActiveWithRenewalOnAndExpiredWithItOff() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let bought = try await fixture.emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly"))
        let id = try #require(bought.transactionId)
        let latest = try #require(await fixture.emulator.ledger().first { $0.transactionId == id })
        let end = try #require(latest.expiresDate)
        func signed(at milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
        var chain = EmulatedSubscription(first: latest)

        #expect(chain.status(latest: latest, at: end - 1) == .active)
        #expect(chain.status(latest: latest, at: end + 1) == .active, "Apple renews at the boundary")
        #expect(
            chain.renewalInfo(latest: latest, renewalPrice: 0, signedAt: signed(at: end + 1)).expirationIntent == nil)

        chain.autoRenewEnabled = false
        #expect(chain.status(latest: latest, at: end - 1) == .active)
        #expect(chain.status(latest: latest, at: end + 1) == .expired)
        let info = chain.renewalInfo(latest: latest, renewalPrice: 0, signedAt: signed(at: end + 1))
        #expect(info.autoRenewStatus == .off && info.expirationIntent == .customerCancelled)
        #expect(
            chain.renewalInfo(latest: latest, renewalPrice: 0, signedAt: signed(at: end - 1)).expirationIntent == nil)
    }
}
