import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import Testing

/// Auto-renewable subscriptions over their life: renewals, billing retry and grace period,
/// voluntary cancel, expiry, resubscribe and refunds of periods, each with Apple's
/// notification, signed transaction, renewal info and status.
struct SubscriptionLifecycleTests {
    static let day: Int64 = 86_400_000

    @Test func aRenewalContinuesTheChainFromThePeriodsEnd() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        let token = UUID().uuidString.lowercased()
        let bought = try await emulator.purchase(
            deviceId: "ann", PurchaseRequest(productId: "vip.monthly", appAccountToken: token))
        let id = try #require(bought.transactionId)
        let first = try #require(try await probe.only().transaction)
        #expect(first.expiresDate == (first.purchaseDate ?? 0) + 30 * Self.day)
        #expect(first.transactionReason == .purchase)
        try await emulator.finishTransaction(deviceId: "ann", transactionId: id)

        let renewal = try await emulator.renewSubscription(originalTransactionId: id)
        let told = try await probe.only()
        #expect(told.name == "DID_RENEW")
        #expect(told.status == .active)
        let signed = try #require(told.transaction)
        #expect(signed.transactionId == renewal.transactionId && signed.transactionId != id)
        #expect(signed.originalTransactionId == id)
        #expect(signed.appAccountToken == token)
        #expect(signed.webOrderLineItemId != nil && signed.webOrderLineItemId != first.webOrderLineItemId)
        #expect(signed.purchaseDate == first.expiresDate)
        #expect(signed.expiresDate == (first.expiresDate ?? 0) + 30 * Self.day)
        #expect(signed.originalPurchaseDate == first.purchaseDate)
        #expect(signed.transactionReason == .renewal)
        #expect(signed.inAppOwnershipType == .purchased)
        let info = try #require(told.renewal)
        #expect(info.autoRenewStatus == .on && info.autoRenewProductId == "vip.monthly")
        #expect(info.isInBillingRetryPeriod == false && info.gracePeriodExpiresDate == nil)
        #expect(info.renewalDate == signed.expiresDate)
        #expect(info.recentSubscriptionStartDate == first.purchaseDate)
        #expect(
            try await emulator.unfinishedTransactions(deviceId: "ann").map(\.transactionId) == [signed.transactionId])

        let (status, latest, _) = try await probe.status(of: id)
        #expect(status == .active)
        #expect(latest.transactionId == renewal.transactionId)
    }

    @Test func aFailedRenewalGoesThroughGraceAndBillingRetryAndRecovers() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        let id = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly")).transactionId)
        let first = try #require(try await probe.only().transaction)

        try await emulator.failRenewal(originalTransactionId: id, gracePeriod: true)
        let failed = try await probe.only()
        #expect(failed.name == "DID_FAIL_TO_RENEW/GRACE_PERIOD")
        #expect(failed.status == .billingGracePeriod)
        #expect(failed.renewal?.isInBillingRetryPeriod == true)
        #expect(failed.renewal?.gracePeriodExpiresDate == (first.expiresDate ?? 0) + 16 * Self.day)
        #expect(failed.transaction?.transactionId == id)
        #expect(try await probe.status(of: id).0 == .billingGracePeriod)
        await #expect(throws: EmulatorError.self) {
            try await emulator.failRenewal(originalTransactionId: id, gracePeriod: false)
        }

        try await emulator.expireGracePeriod(originalTransactionId: id)
        let graceOver = try await probe.only()
        #expect(graceOver.name == "GRACE_PERIOD_EXPIRED")
        #expect(graceOver.status == .billingRetry)
        #expect(graceOver.renewal?.isInBillingRetryPeriod == true)
        #expect(try await probe.status(of: id).0 == .billingRetry)

        let recovered = try await emulator.recoverSubscription(originalTransactionId: id)
        let told = try await probe.only()
        #expect(told.name == "DID_RENEW/BILLING_RECOVERY")
        #expect(told.status == .active)
        #expect(told.transaction?.transactionId == recovered.transactionId)
        #expect(told.transaction?.originalTransactionId == id)
        #expect(told.renewal?.isInBillingRetryPeriod == false)
        #expect(told.renewal?.gracePeriodExpiresDate == nil)
        #expect(try await probe.status(of: id).0 == .active)
        await #expect(throws: EmulatorError.self) { try await emulator.recoverSubscription(originalTransactionId: id) }
    }

    @Test func billingRetryEndsInExpiryForABillingError() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        let id = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly")).transactionId)
        _ = try await probe.next()
        try await emulator.failRenewal(originalTransactionId: id, gracePeriod: false)
        let failed = try await probe.only()
        #expect(failed.name == "DID_FAIL_TO_RENEW")
        #expect(failed.status == .billingRetry)
        #expect(failed.renewal?.gracePeriodExpiresDate == nil)
        #expect(failed.renewal?.isInBillingRetryPeriod == true)

        try await emulator.expireSubscription(originalTransactionId: id)
        let expired = try await probe.only()
        #expect(expired.name == "EXPIRED/BILLING_RETRY")
        #expect(expired.status == .expired)
        #expect(expired.renewal?.expirationIntent == .billingError)
        #expect(expired.renewal?.autoRenewStatus == .off)
        #expect(expired.renewal?.isInBillingRetryPeriod == false)
        #expect(try await probe.status(of: id).0 == .expired)
    }

    @Test func aVoluntaryCancelCanBeUndoneThenExpiresAndAResubscribeRejoinsTheChain() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        let id = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly")).transactionId)
        #expect(try await probe.names() == ["SUBSCRIBED/INITIAL_BUY"])
        let repeated = await #expect(throws: EmulatorError.self) {
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.premium"))
        }
        #expect(repeated?.code == "already_subscribed" && repeated?.status == 409)

        try await emulator.setAutoRenew(deviceId: "ann", originalTransactionId: id, enabled: false)
        let off = try await probe.only()
        #expect(off.name == "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED")
        #expect(off.renewal?.autoRenewStatus == .off)
        #expect(off.status == .active, "service lasts to the period's end")
        try await emulator.setAutoRenew(deviceId: "ann", originalTransactionId: id, enabled: false)
        #expect(try await probe.names() == [], "no change, no notification")
        try await emulator.setAutoRenew(deviceId: "ann", originalTransactionId: id, enabled: true)
        #expect(try await probe.only().renewal?.autoRenewStatus == .on)
        let stranger = await #expect(throws: EmulatorError.self) {
            try await emulator.setAutoRenew(deviceId: "bob", originalTransactionId: id, enabled: false)
        }
        #expect(stranger?.code == "subscription_of_other_account")
        await #expect(throws: EmulatorError.self) { try await emulator.expireSubscription(originalTransactionId: id) }

        try await emulator.setAutoRenew(deviceId: "ann", originalTransactionId: id, enabled: false)
        #expect(try await probe.names() == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"])
        await #expect(throws: EmulatorError.self) { try await emulator.renewSubscription(originalTransactionId: id) }
        try await emulator.expireSubscription(originalTransactionId: id)
        let expired = try await probe.only()
        #expect(expired.name == "EXPIRED/VOLUNTARY")
        #expect(expired.renewal?.expirationIntent == .customerCancelled)
        #expect(expired.status == .expired)

        let again = try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.premium"))
        let resubscribed = try await probe.only()
        #expect(resubscribed.name == "SUBSCRIBED/RESUBSCRIBE")
        #expect(resubscribed.transaction?.originalTransactionId == id)
        #expect(resubscribed.transaction?.transactionId == again.transactionId)
        #expect(resubscribed.transaction?.productId == "vip.premium")
        #expect(resubscribed.renewal?.autoRenewStatus == .on && resubscribed.renewal?.expirationIntent == nil)
        #expect(resubscribed.renewal?.recentSubscriptionStartDate == resubscribed.transaction?.purchaseDate)
        #expect(try await probe.status(of: id).0 == .active)
    }

    @Test func anUpgradeIsImmediateWithAProratedRefundAndADowngradeWaitsForTheRenewal() async throws {
        let fixture = try await EmulatorFixture(catalog: EmulatorFixture.twoGroupCatalog)
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        let id = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly")).transactionId)
        _ = try await probe.next()

        let upgraded = try await emulator.changeSubscription(
            deviceId: "ann", originalTransactionId: id, productId: "vip.premium")
        let upgrade = try await probe.only()
        #expect(upgrade.name == "DID_CHANGE_RENEWAL_PREF/UPGRADE")
        #expect(upgrade.transaction?.transactionId == upgraded.transactionId)
        #expect(upgrade.transaction?.originalTransactionId == id)
        #expect(upgrade.transaction?.productId == "vip.premium")
        #expect(upgrade.renewal?.productId == "vip.premium" && upgrade.renewal?.autoRenewProductId == "vip.premium")
        #expect(upgrade.status == .active)
        #expect(upgrade.transaction?.transactionReason == .purchase, "the customer bought the upgrade")
        let oldInfo = try await probe.verifier.verifyTransaction(
            try #require(try await emulator.transactionInfo(id, environment: .sandbox).signedTransactionInfo))
        #expect(oldInfo.isUpgraded == true && oldInfo.revocationDate != nil)
        let old = try #require(await emulator.ledger().first { $0.transactionId == id })
        let share = try #require(old.revocationPercentage)
        #expect(old.isRefunded && share > 99_000 && share <= 100_000, "nearly all the period was unused")
        #expect(old.revocationType == (share < 100_000 ? .refundProrated : .refundFull))
        let oldSigned = try await probe.verifier.verifyTransaction(
            try #require(try await emulator.restore(deviceId: "ann").first?.signedTransaction))
        #expect(oldSigned.transactionId == upgraded.transactionId, "restore gives the chain's current transaction")

        let same = await #expect(throws: EmulatorError.self) {
            try await emulator.changeSubscription(deviceId: "ann", originalTransactionId: id, productId: "vip.premium")
        }
        #expect(same?.code == "same_product")
        let otherGroup = await #expect(throws: EmulatorError.self) {
            try await emulator.changeSubscription(deviceId: "ann", originalTransactionId: id, productId: "club.monthly")
        }
        #expect(otherGroup?.code == "not_in_subscription_group")

        let backing = try await emulator.changeSubscription(
            deviceId: "ann", originalTransactionId: id, productId: "vip.monthly")
        #expect(backing.transactionId == upgraded.transactionId, "a downgrade makes no transaction")
        let downgrade = try await probe.only()
        #expect(downgrade.name == "DID_CHANGE_RENEWAL_PREF/DOWNGRADE")
        #expect(downgrade.renewal?.productId == "vip.premium")
        #expect(downgrade.renewal?.autoRenewProductId == "vip.monthly")
        #expect(downgrade.renewal?.renewalPrice == 4_990)

        let renewal = try await emulator.renewSubscription(originalTransactionId: id)
        #expect(renewal.productId == "vip.monthly", "the downgrade takes effect at the renewal")
        #expect(renewal.purchaseDate == upgraded.expiresDate)
        #expect(try await probe.only().renewal?.productId == "vip.monthly")

        // A crossgrade (same level: premium to annual) is immediate too.
        let premium = try await emulator.changeSubscription(
            deviceId: "ann", originalTransactionId: id, productId: "vip.premium")
        #expect(try await probe.only().name == "DID_CHANGE_RENEWAL_PREF/UPGRADE")
        let crossed = try await emulator.changeSubscription(
            deviceId: "ann", originalTransactionId: id, productId: "vip.annual")
        #expect(crossed.productId == "vip.annual")
        #expect(crossed.expiresDate == crossed.purchaseDate + 365 * Self.day)
        let crossgrade = try await probe.only()
        #expect(crossgrade.name == "DID_CHANGE_RENEWAL_PREF/UPGRADE")
        #expect(await emulator.ledger().first { $0.transactionId == premium.transactionId }?.isRefunded == true)
        #expect(await emulator.ledger().first { $0.transactionId == renewal.transactionId }?.isRefunded == true)
    }

    @Test func aRefundedPeriodRevokesTheChainAndAResubscribeFollows() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        let id = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly")).transactionId)
        let renewal = try await emulator.renewSubscription(originalTransactionId: id)
        _ = try await probe.next()
        try await emulator.refund(transactionId: renewal.transactionId)
        let refund = try await probe.only()
        #expect(refund.name == "REFUND")
        #expect(refund.status == .revoked)
        #expect(refund.renewal?.autoRenewStatus == .off)
        #expect(try await probe.status(of: id).0 == .revoked)
        await #expect(throws: EmulatorError.self) { try await emulator.renewSubscription(originalTransactionId: id) }
        _ = try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly"))
        #expect(try await probe.names() == ["SUBSCRIBED/RESUBSCRIBE"])
        #expect(try await probe.status(of: id).0 == .active)
    }
}

extension SubscriptionLifecycleTests {
    @Test func transactionHistoryListsEveryPeriodAndTheMembersSharedCopies() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let emulator = fixture.emulator
        let verifier = SubscriptionProbe(emulator).verifier
        let id = try #require(
            try await emulator.purchase(deviceId: "mum", PurchaseRequest(productId: "vip.monthly")).transactionId)
        let shared = try await emulator.familyShare(originalTransactionId: id, memberDeviceId: "kid")
        let renewal = try await emulator.renewSubscription(originalTransactionId: id)
        let upgrade = try await emulator.changeSubscription(
            deviceId: "mum", originalTransactionId: id, productId: "vip.premium")
        func history(_ anyId: String, _ request: TransactionHistoryRequest = TransactionHistoryRequest()) async throws
            -> [JWSTransactionDecodedPayload]
        {
            var payloads: [JWSTransactionDecodedPayload] = []
            for jws in try await emulator.transactionHistory(anyId, request, environment: .sandbox).signedTransactions
                ?? []
            {
                payloads.append(try await verifier.verifyTransaction(jws))
            }
            return payloads
        }
        let purchaser = try await history(id)
        #expect(Set(purchaser.map(\.transactionId)) == [id, renewal.transactionId, upgrade.transactionId])
        #expect(purchaser.allSatisfy { $0.originalTransactionId == id })
        #expect(
            purchaser.first { $0.transactionId == renewal.transactionId }?.revocationType == .refundFull,
            "the renewed period had not begun: all of it is refunded")
        let member = try await history(
            shared.transactionId, TransactionHistoryRequest(inAppOwnershipType: .familyShared))
        #expect(member.count == 2, "the shared copy and its renewal")
        #expect(
            member.allSatisfy {
                $0.inAppOwnershipType == .familyShared && $0.originalTransactionId == shared.transactionId
            })
        #expect(
            try await history(shared.transactionId, TransactionHistoryRequest(inAppOwnershipType: .purchased)).isEmpty)
    }
}
