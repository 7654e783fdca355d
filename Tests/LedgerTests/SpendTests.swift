import Foundation
import Ledger
import LedgerTestSupport
import Synchronization
import Testing

/// The game's spends from a wallet, on both databases: once per idempotency key, never
/// below zero, all or nothing.
@Suite("Spends (SQLite and PostgreSQL)")
struct SpendTests {
    private static func request(
        _ key: String, _ items: Grants, player: String = "player-1", reason: String = "shop: sword"
    ) -> SpendRequest {
        SpendRequest(playerId: player, idempotencyKey: key, items: items, reason: reason, actor: "game-server")
    }

    private static func fund(_ store: any LedgerStore, _ grants: Grants, player: String = "player-1") async throws {
        _ = try await store.grantManually(
            playerId: player, grants: grants, reason: "test funds", actor: "test", via: nil)
    }

    @Test(
        "a spend debits once per key: entries, event and webhook message; the key again replays it",
        arguments: StoreKind.allCases)
    func aSpendDebitsOncePerKey(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            try await Self.fund(store, ["coins": 100, "gems": 5])
            let first = try await store.spend(Self.request("order-7", ["coins": 30, "gems": 2]))
            #expect(!first.replayed)
            #expect(first.spend.balances == ["coins": 70, "gems": 3])
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 70, "gems": 3])

            let again = try await store.spend(Self.request("order-7", ["coins": 30, "gems": 2]))
            #expect(again.replayed)
            #expect(again.spend == first.spend, "the recorded spend, balances as it left them")
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 70, "gems": 3])

            let spends = try await store.ledgerEntries(playerId: "player-1").filter { $0.kind == .spend }
            #expect(spends.map(\.item) == ["coins", "gems"])
            #expect(spends.map(\.amount) == [-30, -2])
            #expect(spends.map(\.balanceAfter) == [70, 3])
            #expect(spends.allSatisfy { $0.reason == "shop: sword" && $0.actor == "game-server" })

            let events = try await store.timeline(playerId: "player-1").filter { $0.type == .spend }
            #expect(events.count == 1)
            #expect(events.first?.detail["idempotencyKey"] == "order-7")
            #expect(events.first?.detail["items"] == #"{"coins":30,"gems":2}"#)
            #expect(events.first?.detail["balances"] == #"{"coins":70,"gems":3}"#)

            let message = try #require(
                try await store.outboxMessage(
                    idempotencyKey: SpendMessage.idempotencyKey(playerId: "player-1", spendKey: "order-7")))
            let body = try JSONDecoder().decode(SpendMessage.self, from: message.payload)
            #expect(body.kind == "spend")
            #expect(body.items == ["coins": 30, "gems": 2])
            #expect(body.balances == ["coins": 70, "gems": 3])
            #expect(try await store.spends(playerId: "player-1", limit: 10) == [first.spend])
        }
    }

    @Test(
        "a spend that would take an item below zero changes nothing, and its key stays free",
        arguments: StoreKind.allCases)
    func anOverdraftChangesNothing(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            try await Self.fund(store, ["coins": 100, "gems": 1])
            // coins would be debited first (item order); gems then lacks: all is rolled back.
            await #expect(throws: LedgerError.insufficientBalance(item: "gems", balance: 1, requested: 2)) {
                try await store.spend(Self.request("order-8", ["coins": 30, "gems": 2]))
            }
            await #expect(throws: LedgerError.insufficientBalance(item: "potions", balance: 0, requested: 1)) {
                try await store.spend(Self.request("order-9", ["potions": 1]))
            }
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 100, "gems": 1])
            #expect(try await store.ledgerEntries(playerId: "player-1").allSatisfy { $0.kind != .spend })
            #expect(try await store.timeline(playerId: "player-1").allSatisfy { $0.type != .spend })
            #expect(try await store.spends(playerId: "player-1", limit: 10).isEmpty)

            try await Self.fund(store, ["gems": 1])
            let later = try await store.spend(Self.request("order-8", ["coins": 30, "gems": 2]))
            #expect(!later.replayed, "the refused spend left its key free")
            #expect(later.spend.balances == ["coins": 70, "gems": 0])
        }
    }

    @Test("a key used for another spend is refused; keys are the player's own", arguments: StoreKind.allCases)
    func aReusedKeyIsRefused(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            try await Self.fund(store, ["coins": 100])
            try await Self.fund(store, ["coins": 100], player: "player-2")
            _ = try await store.spend(Self.request("k1", ["coins": 10]))
            await #expect(throws: LedgerError.idempotencyKeyReused(key: "k1")) {
                try await store.spend(Self.request("k1", ["coins": 11]))
            }
            await #expect(throws: LedgerError.idempotencyKeyReused(key: "k1")) {
                try await store.spend(Self.request("k1", ["coins": 10], reason: "another reason"))
            }
            let other = try await store.spend(Self.request("k1", ["coins": 10], player: "player-2"))
            #expect(!other.replayed)
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 90])
            #expect(try await store.wallet(playerId: "player-2") == ["coins": 90])
        }
    }

    @Test("spends outside the rules are refused before anything is written")
    func spendsOutsideTheRules() async throws {
        try await withStore(.sqlite) { store, _ in
            try await Self.fund(store, ["coins": 100])
            let refused: [SpendRequest] = [
                Self.request("k", [:]),
                Self.request("k", ["coins": 0]),
                Self.request("k", ["coins": -5]),
                Self.request("", ["coins": 1]),
                Self.request("k\u{200B}", ["coins": 1]),
                Self.request(String(repeating: "k", count: 129), ["coins": 1]),
                Self.request("k", ["coins": 1], reason: ""),
                Self.request("k", ["": 1]),
            ]
            for request in refused {
                await #expect(throws: LedgerError.self) { try await store.spend(request) }
                do {
                    _ = try await store.spend(request)
                } catch let error as LedgerError {
                    guard case .invalidSpend = error else {
                        Issue.record("\(request): expected invalidSpend, got \(error)")
                        continue
                    }
                }
            }
            #expect(try await store.wallet(playerId: "player-1") == ["coins": 100])
        }
    }

    @Test("two spends at once never overdraw: the second debit sees the first", arguments: StoreKind.allCases)
    func concurrentSpendsNeverOverdraw(kind: StoreKind) async throws {
        try await withInterleavedStores(kind, at: .spendClaimed(playerId: "player-1", idempotencyKey: "paused")) {
            paused, intruder, interleaving in
            try await Self.fund(paused, ["coins": 50])
            let intruderOutcome = Mutex<Result<SpendResult, LedgerError>?>(nil)
            interleaving.intrude {
                do {
                    let result = try await intruder.spend(Self.request("intruder", ["coins": 30]))
                    intruderOutcome.withLock { $0 = .success(result) }
                } catch let error as LedgerError {
                    intruderOutcome.withLock { $0 = .failure(error) }
                }
            }
            // Paused after claiming its key, before its debit: the intruder's spend of 30
            // either runs to its end (PostgreSQL: nothing of the player is locked yet) or
            // waits for this one (SQLite's writer lock). Either way one of the two is refused
            // with the 20 the other left: 60 are never taken from 50.
            let pausedOutcome: Result<SpendResult, LedgerError>
            do {
                pausedOutcome = .success(try await paused.spend(Self.request("paused", ["coins": 30])))
            } catch let error as LedgerError {
                pausedOutcome = .failure(error)
            }
            try await interleaving.intruderResult()
            let refusal = LedgerError.insufficientBalance(item: "coins", balance: 20, requested: 30)
            let outcomes = (paused: pausedOutcome, intruder: try #require(intruderOutcome.withLock { $0 }))
            switch interleaving.intrusion {
            case .finished:
                #expect(try outcomes.intruder.get().spend.balances == ["coins": 20])
                #expect(throws: refusal) { try outcomes.paused.get() }
            case .waited:
                #expect(try outcomes.paused.get().spend.balances == ["coins": 20])
                #expect(throws: refusal) { try outcomes.intruder.get() }
            case .notStarted:
                Issue.record("the pause point was never reached")
            }
            #expect(try await paused.wallet(playerId: "player-1") == ["coins": 20])
            #expect(try await paused.ledgerEntries(playerId: "player-1").filter { $0.kind == .spend }.count == 1)
        }
    }

    @Test("the same key sent twice at once debits once", arguments: StoreKind.allCases)
    func theSameKeyAtOnceDebitsOnce(kind: StoreKind) async throws {
        try await withInterleavedStores(kind, at: .spendClaimed(playerId: "player-1", idempotencyKey: "twice")) {
            paused, intruder, interleaving in
            try await Self.fund(paused, ["coins": 50])
            interleaving.intrude {
                let result = try await intruder.spend(Self.request("twice", ["coins": 30]))
                #expect(result.replayed, "the retry found the spend its twin recorded")
                #expect(result.spend.balances == ["coins": 20])
            }
            let first = try await paused.spend(Self.request("twice", ["coins": 30]))
            try await interleaving.intruderResult()
            #expect(!first.replayed)
            #expect(interleaving.intrusion == .waited, "the twin waited for the key's claim to end")
            #expect(try await paused.wallet(playerId: "player-1") == ["coins": 20])
            #expect(try await paused.ledgerEntries(playerId: "player-1").filter { $0.kind == .spend }.count == 1)
        }
    }
}
