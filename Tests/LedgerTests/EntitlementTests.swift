import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// Entitlements set by deliveries and changed by Apple's later data, on both stores.
@Suite("Entitlements (SQLite and PostgreSQL)")
struct EntitlementTests {
    typealias F = EntitlementFixture

    @Test("a first delivery inserts the chain's entitlement, with its event and message", arguments: StoreKind.allCases)
    func firstDeliveryInserts(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = F.renewal("1000", period: 0)
            #expect(try await store.deliver(delivery).isFirstDelivery)

            let entitlement = try #require(try await store.entitlement(store: .appStore, originalTransactionId: "1000"))
            #expect(entitlement.playerId == "alice")
            #expect(entitlement.entitlementId == "vip")
            #expect(entitlement.productId == "vip.monthly")
            #expect(entitlement.productType == .autoRenewable)
            #expect(entitlement.transactionId == "1000")
            #expect(entitlement.state == .active)
            #expect(entitlement.since == F.start)
            #expect(entitlement.until == F.start.addingTimeInterval(F.month))
            #expect(entitlement.autoRenew == true)
            #expect(entitlement.autoRenewProductId == "vip.monthly")
            #expect(entitlement.ownership == .purchased)
            #expect(entitlement.environment == .sandbox)
            #expect(entitlement.signedAt == F.start)
            #expect(entitlement.isEntitled(at: F.at(days: 29)))
            #expect(!entitlement.isEntitled(at: F.at(days: 30)))
            #expect(try await store.entitlements(playerId: "alice") == [entitlement])
            #expect(try await store.entitlements(playerId: "bob").isEmpty)

            let events = try await store.entitlementEvents(playerId: "alice")
            #expect(events.count == 1)
            #expect(events.first?.detail["state"] == "active")
            #expect(events.first?.detail["previousState"] == nil)
            #expect(events.first?.detail["reason"] == "SUBSCRIBED")
            #expect(events.first?.transactionId == "1000")
            let stored = try #require(try await store.entitlement(store: .appStore, originalTransactionId: "1000"))
            let key = EntitlementMessage.idempotencyKey(of: stored)
            let until = Int64((try #require(stored.until)).timeIntervalSince1970 * 1000)
            #expect(key == "entitlement:1000:alice:1700000000000:active:1000:\(until)")
            let message = try #require(try await store.entitlementMessage(key: key))
            #expect(message.kind == "entitlement")
            #expect(message.reason == "SUBSCRIBED")
            // Written now, long after the test's 2023 period ended: not entitled now.
            #expect(message.entitled == false)
        }
    }

    @Test("a renewal updates the entitlement once; its second delivery changes nothing", arguments: StoreKind.allCases)
    func renewalUpdatesOnce(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.deliver(F.renewal("2000", period: 0))
            let renewal = F.renewal("2000", period: 1)
            #expect(try await store.deliver(renewal).isFirstDelivery)
            let renewed = try #require(try await store.entitlement(store: .appStore, originalTransactionId: "2000"))
            #expect(renewed.transactionId == "2000-1")
            #expect(renewed.since == F.start)
            #expect(renewed.until == F.start.addingTimeInterval(2 * F.month))
            #expect(renewed.signedAt == F.start.addingTimeInterval(F.month))

            // Reported again (the device after the notification): nothing changes.
            var again = renewal
            again.source = .clientSignedTransaction
            #expect(try await store.deliver(again).isFirstDelivery == false)
            #expect(try await store.entitlement(store: .appStore, originalTransactionId: "2000") == renewed)
            let events = try await store.entitlementEvents(playerId: "alice")
            #expect(events.map { $0.detail["reason"] } == ["SUBSCRIBED", "DID_RENEW"])
            #expect(events.map(\.transactionId) == ["2000", "2000-1"])
            #expect(events.last?.detail["previousState"] == "active")
        }
    }

    @Test("older Apple data never overwrites newer, by delivery or update", arguments: StoreKind.allCases)
    func olderNeverOverwritesNewer(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.deliver(F.renewal("3000", period: 0))
            // Apple says the chain expired (signed 40 days in) before the renewal, signed
            // earlier, is delivered: the purchase goes in, the entitlement stays expired.
            let expiry = EntitlementUpdate(
                store: .appStore,
                originalTransactionId: "3000", state: .expired, autoRenew: false, signedAt: F.at(days: 40),
                reason: "EXPIRED/VOLUNTARY")
            guard case .changed(let expired) = try await store.updateEntitlement(expiry) else {
                Issue.record("the expiry must change the entitlement")
                return
            }
            #expect(expired.state == .expired)
            #expect(expired.autoRenew == false)
            #expect(expired.until == F.start.addingTimeInterval(F.month), "no setsUntil: the end stays")
            #expect(try await store.deliver(F.renewal("3000", period: 1)).isFirstDelivery)
            #expect(try await store.entitlement(store: .appStore, originalTransactionId: "3000") == expired)

            // An older update changes nothing; one as new that changes nothing writes nothing.
            let stale = EntitlementUpdate(
                store: .appStore,
                originalTransactionId: "3000", state: .active, signedAt: F.at(days: 39), reason: "DID_RENEW")
            #expect(try await store.updateEntitlement(stale) == .unchanged(expired))
            var same = expiry
            same.signedAt = F.at(days: 41)
            same.autoRenew = nil
            #expect(try await store.updateEntitlement(same) == .unchanged(expired))
            #expect(try await store.entitlementEvents(playerId: "alice").count == 2)

            // A newer renewal delivery does change it again.
            _ = try await store.deliver(F.renewal("3000", period: 2))
            let back = try #require(try await store.entitlement(store: .appStore, originalTransactionId: "3000"))
            #expect(back.state == .active)
            #expect(back.transactionId == "3000-2")
            #expect(back.until == F.start.addingTimeInterval(3 * F.month))
        }
    }

    @Test("an update sets transaction, product, end and renewal intent as told", arguments: StoreKind.allCases)
    func updateFields(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.deliver(F.renewal("4000", period: 0))
            let grace = EntitlementUpdate(
                store: .appStore,
                originalTransactionId: "4000", transactionId: "4000-x", productId: "vip.premium",
                state: .gracePeriod, until: F.at(days: 46), setsUntil: true, autoRenew: true,
                autoRenewProductId: "vip.premium", signedAt: F.at(days: 30),
                reason: "DID_FAIL_TO_RENEW/GRACE_PERIOD")
            guard case .changed(let changed) = try await store.updateEntitlement(grace) else {
                Issue.record("expected a change")
                return
            }
            #expect(changed.transactionId == "4000-x")
            #expect(changed.productId == "vip.premium")
            #expect(changed.state == .gracePeriod)
            #expect(changed.until == F.at(days: 46))
            #expect(changed.autoRenewProductId == "vip.premium")
            #expect(changed.isEntitled(at: F.at(days: 45)))
            #expect(!changed.isEntitled(at: F.at(days: 46)))
            let refund = EntitlementUpdate(
                store: .appStore,
                originalTransactionId: "4000", state: .refunded, until: nil, setsUntil: true,
                signedAt: F.at(days: 31), reason: "REFUND")
            guard case .changed(let refunded) = try await store.updateEntitlement(refund) else {
                Issue.record("expected a change")
                return
            }
            #expect(refunded.until == nil)
            #expect(!refunded.isEntitled(at: F.at(days: 31)))
            #expect(refunded.transactionId == "4000-x", "nil keeps the backing transaction")
            let missing = EntitlementUpdate(
                store: .appStore,
                originalTransactionId: "nope", state: .expired, signedAt: F.start, reason: "EXPIRED")
            #expect(try await store.updateEntitlement(missing) == .unknown)
            let detail = try await store.entitlementEvents(playerId: "alice").last?.detail
            #expect(detail?["state"] == "refunded")
            #expect(detail?["previousState"] == "grace_period")
            #expect(detail?["reason"] == "REFUND")
        }
    }

    @Test(
        "non-renewing periods stack; one bought after the last lapsed starts at its purchase",
        arguments: StoreKind.allCases)
    func nonRenewingStacking(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let period: TimeInterval = 90 * F.day
            _ = try await store.deliver(F.seasonPass("s1", purchaseDate: F.start))
            _ = try await store.deliver(F.seasonPass("s2", purchaseDate: F.at(days: 10)))
            _ = try await store.deliver(F.seasonPass("b1", player: "bob", purchaseDate: F.at(days: 20)))
            #expect(
                try await store.entitlement(store: .appStore, originalTransactionId: "s1")?.until
                    == F.start.addingTimeInterval(period))
            #expect(
                try await store.entitlement(store: .appStore, originalTransactionId: "s2")?.until
                    == F.start.addingTimeInterval(2 * period), "the second starts when the first ends")
            #expect(
                try await store.entitlement(store: .appStore, originalTransactionId: "b1")?.until
                    == F.at(days: 20).addingTimeInterval(period), "another player's passes do not stack")
            // Bought after both lapsed (day 400 > day 180): starts at its purchase.
            _ = try await store.deliver(F.seasonPass("s3", purchaseDate: F.at(days: 400)))
            #expect(
                try await store.entitlement(store: .appStore, originalTransactionId: "s3")?.until
                    == F.at(days: 400).addingTimeInterval(period))
            // A refunded pass no longer extends the next one.
            _ = try await store.updateEntitlement(
                EntitlementUpdate(
                    store: .appStore,
                    originalTransactionId: "s3", state: .refunded, signedAt: F.at(days: 401), reason: "REFUND"))
            _ = try await store.deliver(F.seasonPass("s4", purchaseDate: F.at(days: 402)))
            #expect(
                try await store.entitlement(store: .appStore, originalTransactionId: "s4")?.until
                    == F.at(days: 402).addingTimeInterval(period))
            #expect(
                try await store.entitlements(playerId: "alice").map(\.originalTransactionId) == [
                    "s1", "s2", "s3", "s4",
                ])
        }
    }

    @Test("a grant with an empty entitlement id or a period of no length is refused", arguments: StoreKind.allCases)
    func invalidGrants(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            var empty = F.levelPack("l1")
            empty.entitlement?.entitlementId = ""
            await #expect(throws: LedgerError.invalidGrants("empty entitlement id")) {
                try await store.deliver(empty)
            }
            var zero = F.seasonPass("s1", purchaseDate: F.start)
            zero.entitlement?.stackSeconds = 0
            await #expect(throws: LedgerError.self) { try await store.deliver(zero) }
            let purchases = try await store.purchases(playerId: "alice")
            #expect(purchases.isEmpty, "nothing written")
        }
    }

    @Test(
        "lapsed subscriptions: auto-renewable, still entitling, ended before the date, oldest first",
        arguments: StoreKind.allCases)
    func lapsedSubscriptions(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.deliver(F.renewal("a", period: 0))  // ends day 30
            _ = try await store.deliver(F.renewal("b", period: 0, player: "bob"))
            _ = try await store.updateEntitlement(  // grace until day 46
                EntitlementUpdate(
                    store: .appStore,
                    originalTransactionId: "b", state: .gracePeriod, until: F.at(days: 46), setsUntil: true,
                    signedAt: F.at(days: 30), reason: "DID_FAIL_TO_RENEW/GRACE_PERIOD"))
            _ = try await store.deliver(F.renewal("c", period: 0, player: "carol"))
            _ = try await store.updateEntitlement(  // expired: not lapsed, settled
                EntitlementUpdate(
                    store: .appStore,
                    originalTransactionId: "c", state: .expired, signedAt: F.at(days: 31), reason: "EXPIRED"))
            _ = try await store.deliver(F.seasonPass("s", purchaseDate: F.start))  // non-renewing, ends day 90
            _ = try await store.deliver(F.levelPack("l"))  // permanent

            let all = try await store.lapsedSubscriptions(before: F.at(days: 1000), limit: 10)
            #expect(all.map(\.originalTransactionId) == ["a", "b"])
            #expect(
                try await store.lapsedSubscriptions(before: F.at(days: 1000), limit: 1).map(\.originalTransactionId)
                    == ["a"])
            #expect(
                try await store.lapsedSubscriptions(before: F.at(days: 30), limit: 10).isEmpty, "until is not before")
            #expect(
                try await store.lapsedSubscriptions(before: F.at(days: 40), limit: 10).map(\.originalTransactionId) == [
                    "a"
                ])
            #expect(try await store.lapsedSubscriptions(before: F.at(days: 1000), limit: 0).isEmpty)
        }
    }
}
