import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// Consent to share consumption data, Apple's rescissions of it and the game server's
/// consumption reports, on both stores.
@Suite("Consumption consent and reports (SQLite and PostgreSQL)")
struct ConsumptionConsentTests {
    @Test("consent given, given again, withdrawn: each change once, on the timeline", arguments: StoreKind.allCases)
    func giveAndWithdraw(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            #expect(try await store.consumptionConsent(playerId: "alice") == nil)

            let given = try await store.changeConsumptionConsent(
                ConsumptionConsentChange(playerId: "alice", status: .given, source: .player, appTransactionId: "7001"))
            guard case .changed(let consent) = given else {
                Issue.record("expected a change, got \(given)")
                return
            }
            #expect(consent.isGiven)
            #expect(consent.source == .player)
            #expect(consent.appTransactionId == "7001")
            #expect(try await store.consumptionConsent(playerId: "alice") == consent)

            // Given again without an account: nothing changes, the account stays.
            let again = try await store.changeConsumptionConsent(
                ConsumptionConsentChange(playerId: "alice", status: .given, source: .player))
            #expect(again == .unchanged(consent))

            let withdrawn = try await store.changeConsumptionConsent(
                ConsumptionConsentChange(
                    playerId: "alice", status: .withdrawn, source: .admin, changedBy: "sam", reason: "ticket 4711"))
            #expect(withdrawn.consent.status == .withdrawn)
            #expect(withdrawn.consent.source == .admin)
            #expect(withdrawn.consent.changedBy == "sam")
            #expect(withdrawn.consent.appTransactionId == "7001")
            guard case .changed = withdrawn else {
                Issue.record("expected a change, got \(withdrawn)")
                return
            }
            let twice = try await store.changeConsumptionConsent(
                ConsumptionConsentChange(playerId: "alice", status: .withdrawn, source: .player))
            #expect(twice == .unchanged(withdrawn.consent))

            let events = try await store.timeline(playerId: "alice")
            #expect(events.map(\.type) == [.consumptionConsentGiven, .consumptionConsentWithdrawn])
            #expect(events[0].detail["source"] == "player")
            #expect(events[0].detail["appTransactionId"] == "7001")
            #expect(events[1].detail["source"] == "admin")
            #expect(events[1].detail["changedBy"] == "sam")
            #expect(events[1].detail["reason"] == "ticket 4711")
            #expect(try await store.consumptionConsent(playerId: "bob") == nil)
        }
    }

    @Test("a refusal with no consent before is recorded too", arguments: StoreKind.allCases)
    func withdrawWithoutConsent(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let result = try await store.changeConsumptionConsent(
                ConsumptionConsentChange(playerId: "alice", status: .withdrawn, source: .player))
            guard case .changed(let consent) = result else {
                Issue.record("expected a change, got \(result)")
                return
            }
            #expect(consent.status == .withdrawn)
            #expect(try await store.timeline(playerId: "alice").map(\.type) == [.consumptionConsentWithdrawn])
        }
    }

    @Test("RESCIND_CONSENT withdraws the consents given with its account, once", arguments: StoreKind.allCases)
    func rescission(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            for (player, account) in [("alice", "7001"), ("bob", "7001"), ("carol", "7002")] {
                _ = try await store.changeConsumptionConsent(
                    ConsumptionConsentChange(
                        playerId: player, status: .given, source: .player, appTransactionId: account))
            }
            let rescission = ConsentRescission(
                notificationUUID: "n-1", appTransactionId: "7001", signedDate: Date(), receivedAt: Date())
            let result = try await store.recordConsentRescission(rescission)
            guard case .recorded(let withdrawn) = result else {
                Issue.record("expected a recording, got \(result)")
                return
            }
            #expect(Set(withdrawn.map(\.playerId)) == ["alice", "bob"])
            for player in ["alice", "bob"] {
                let consent = try #require(try await store.consumptionConsent(playerId: player))
                #expect(consent.status == .withdrawn)
                #expect(consent.source == .appleRescindConsent)
                #expect(consent.changedBy == "n-1")
                let last = try #require(try await store.timeline(playerId: player).last)
                #expect(last.type == .consumptionConsentWithdrawn)
                #expect(last.detail["notificationUUID"] == "n-1")
                #expect(last.detail["source"] == "apple_rescind_consent")
            }
            #expect(try await store.consumptionConsent(playerId: "carol")?.isGiven == true)

            // Processed again (Apple's retry, the reconciler): nothing more, even after the
            // player consented again.
            _ = try await store.changeConsumptionConsent(
                ConsumptionConsentChange(playerId: "alice", status: .given, source: .player))
            #expect(try await store.recordConsentRescission(rescission) == .duplicate)
            #expect(try await store.consumptionConsent(playerId: "alice")?.isGiven == true)
            #expect(try await store.timeline(playerId: "alice").count == 3)
        }
    }

    @Test("a rescission no consent names is recorded and counted later", arguments: StoreKind.allCases)
    func unmatchedRescission(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            // Consent given without an account: the rescission cannot be matched on arrival.
            _ = try await store.changeConsumptionConsent(
                ConsumptionConsentChange(playerId: "alice", status: .given, source: .player))
            let result = try await store.recordConsentRescission(
                ConsentRescission(
                    notificationUUID: "n-2", appTransactionId: "7003", signedDate: nil, receivedAt: Date()))
            #expect(result == .recorded(withdrawn: []))
            #expect(try await store.consumptionConsent(playerId: "alice")?.isGiven == true)

            // A consumption request for a transaction bought with that account: withdrawn now.
            let other = try await store.consumptionConsent(playerId: "alice", appTransactionId: "7004")
            #expect(other?.isGiven == true)
            let consent = try #require(try await store.consumptionConsent(playerId: "alice", appTransactionId: "7003"))
            #expect(consent.status == .withdrawn)
            #expect(consent.source == .appleRescindConsent)
            #expect(consent.changedBy == "n-2")
            let last = try #require(try await store.timeline(playerId: "alice").last)
            #expect(last.type == .consumptionConsentWithdrawn)
            #expect(last.detail["appTransactionId"] == "7003")

            // Consent given again after the rescission stands.
            _ = try await store.changeConsumptionConsent(
                ConsumptionConsentChange(playerId: "alice", status: .given, source: .player))
            #expect(try await store.consumptionConsent(playerId: "alice", appTransactionId: "7003")?.isGiven == true)
            #expect(try await store.consumptionConsent(playerId: "nobody", appTransactionId: "7003") == nil)

            let rescissionWithoutAccount = try await store.recordConsentRescission(
                ConsentRescission(notificationUUID: "n-3", appTransactionId: nil, signedDate: nil, receivedAt: Date()))
            #expect(rescissionWithoutAccount == .recorded(withdrawn: []))
        }
    }

    @Test("concurrent changes: the consent is what the last recorded event says", arguments: StoreKind.allCases)
    func concurrentChanges(kind: StoreKind) async throws {
        try await withStores(kind, count: 2) { stores, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let store = stores[index % 2]
                    let change = ConsumptionConsentChange(
                        playerId: "alice", status: index % 3 == 0 ? .withdrawn : .given, source: .player)
                    group.addTask { _ = try await store.changeConsumptionConsent(change) }
                }
                try await group.waitForAll()
            }
            let consent = try #require(try await stores[0].consumptionConsent(playerId: "alice"))
            let events = try await stores[1].timeline(playerId: "alice")
            #expect(!events.isEmpty)
            #expect(events.last?.type == (consent.isGiven ? .consumptionConsentGiven : .consumptionConsentWithdrawn))
            for (earlier, later) in zip(events, events.dropFirst()) {
                #expect(earlier.type != later.type, "a change recorded twice in a row: \(earlier), \(later)")
            }
        }
    }

    @Test("consumption reports: a share or amounts per item, the latest stands", arguments: StoreKind.allCases)
    func consumptionReports(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery(grants: ["coins": 100, "potions": 3])
            _ = try await store.deliver(delivery)
            let id = delivery.transactionId

            let share = try #require(
                try await store.recordConsumption(transactionId: id, .share(25_000), reportedBy: nil))
            #expect(share.consumptionPercentage == 25_000)
            #expect(share.spent == nil)
            #expect(share.playerId == "player-1")

            let spent = try #require(
                try await store.recordConsumption(
                    transactionId: id, .spent(["coins": 40, "potions": 3]), reportedBy: "game"))
            #expect(spent.consumptionPercentage == 70_000, "(40 % + 100 %) / 2")
            #expect(spent.spent == ["coins": 40, "potions": 3])
            #expect(try await store.consumption(transactionId: id) == spent)

            await #expect(throws: LedgerError.self) {
                try await store.recordConsumption(transactionId: id, .spent(["gems": 1]), reportedBy: nil)
            }
            await #expect(throws: LedgerError.self) {
                try await store.recordConsumption(transactionId: id, .spent(["coins": 101]), reportedBy: nil)
            }
            await #expect(throws: LedgerError.self) {
                try await store.recordConsumption(transactionId: id, .share(100_001), reportedBy: nil)
            }
            #expect(try await store.consumption(transactionId: id) == spent, "a refused report changes nothing")
            #expect(try await store.recordConsumption(transactionId: "unknown", .share(0), reportedBy: nil) == nil)
            #expect(try await store.consumption(transactionId: "unknown") == nil)

            let events = try await store.events(transactionId: id).filter { $0.type == .consumptionReported }
            #expect(events.map { $0.detail["consumptionPercentage"] } == ["25000", "70000"])
            #expect(events.last?.detail["reportedBy"] == "game")
            #expect(events.allSatisfy { $0.playerId == "player-1" })
        }
    }

    @Test("the share of amounts spent: each item counts equally, rounded down")
    func shareOfSpentAmounts() throws {
        let granted: Grants = ["coins": 100, "potions": 3]
        #expect(try Consumption.share(spent: [:], granted: granted) == 0)
        #expect(try Consumption.share(spent: ["coins": 100, "potions": 3], granted: granted) == 100_000)
        #expect(try Consumption.share(spent: ["potions": 1], granted: granted) == 16_666, "33,333 / 2")
        #expect(try Consumption.share(spent: ["coins": 99, "potions": 3], granted: granted) == 99_500)
        #expect(try Consumption.share(spent: ["coins": 1], granted: ["coins": 3]) == 33_333)
        #expect(
            try Consumption.share(spent: ["coins": 999_999_999_999], granted: ["coins": 1_000_000_000_000]) == 99_999)
        #expect(throws: LedgerError.self) { try Consumption.share(spent: ["coins": -1], granted: granted) }
        #expect(throws: LedgerError.self) { try Consumption.share(spent: ["gems": 0], granted: granted) }
    }
}
