import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// `player_unowned_events` and `history_events_by_player_id` (migration 22,
/// ``LedgerSchema/playerUnownedEvents``): a player's timeline, whole, paged forward and read
/// newest first with and without a type filter, is exactly the player's events and the
/// player-less events of the same store's transactions delivered to the player, computed here
/// from the rows themselves: for the rows the migration found, and for those written after
/// it, the triggers keeping the table as events and purchases arrive in any order.
struct PlayerUnownedEventsTests {
    private static let start = Date(timeIntervalSince1970: 1_800_000_000)
    private static let players = ["whale", "ann", "bo", "cy"]

    @Test(
        "timelines answer as the events say, for events and purchases written before migration 22 and after, in any order",
        arguments: StoreKind.allCases)
    func answersAsTheEventsSay(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let store = try #require(try database.open() as? any SQLLedgerStore)
        do {
            try await store.migrate(through: 21)
            var random = SeededGenerator(seed: 22)
            try await Self.eventsAndPurchases(on: store, series: 1, random: &random)
            try await store.migrate(through: 22)
            #expect(try await store.appliedMigrations().last == 22)
            try await Self.expectTimelinesAsTheEventsSay(store)
            try await Self.eventsAndPurchases(on: store, series: 2, random: &random)
            try await Self.expectTimelinesAsTheEventsSay(store)
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    @Test("a Google Play event naming an App Store purchase's id is not on that purchase's player's timeline")
    func otherStoresEventIsLeftOut() async throws {
        try await withStore(.sqlite) { store, _ in
            let id = Fixture.transactionId()
            _ = try await store.appendEvent(
                HistoryEvent(type: .notificationReceived, transactionId: id, store: .googlePlay, createdAt: Self.start))
            _ = try await store.deliver(Fixture.delivery(transactionId: id, player: "ann"))
            _ = try await store.appendEvent(
                HistoryEvent(type: .awaitingReport, transactionId: id, store: .googlePlay, createdAt: Self.start))
            let timeline = try await store.timeline(playerId: "ann")
            #expect(timeline.map(\.type) == [.delivered])
        }
    }

    @Test("an event recorded while its transaction's delivery waits is on the timeline (the delivery waits for it)")
    func eventCommittedDuringDelivery() async throws {
        let database = try await StoreKind.postgres.makeDatabase()
        let store = try PostgresLedgerStore(url: database.url)
        do {
            try await store.migrate()
            let id = Fixture.transactionId()
            let notification = try LedgerSQL.insertEvent(
                HistoryEvent(type: .notificationReceived, transactionId: id, createdAt: Self.start))
            _ = try await run(
                { try await store.deliver(Fixture.delivery(transactionId: id, player: "ann")) },
                behind: notification, on: store,
                releasedWhen: { try await waitUntilOneWaits(store, forLock: "advisory", what: "the delivery") })
            let timeline = try await store.timeline(playerId: "ann")
            #expect(Set(timeline.map(\.type)) == [.notificationReceived, .delivered])
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    @Test("an event recorded while its transaction's delivery is uncommitted waits for it and is on the timeline")
    func deliveryCommittedDuringEvent() async throws {
        let database = try await StoreKind.postgres.makeDatabase()
        let paused = try PausedDelivery(url: database.url)
        let store = paused.store
        do {
            try await store.migrate()
            let delivery = await paused.start(player: "ann")
            let recording = Task {
                try await store.appendEvent(
                    HistoryEvent(type: .notificationReceived, transactionId: paused.chain, createdAt: Self.start))
            }
            do {
                try await waitUntilOneWaits(store, forLock: "advisory", what: "the event's recording")
            } catch {
                paused.release()
                _ = try? await delivery.value
                _ = try? await recording.value
                throw error
            }
            paused.release()
            _ = try await delivery.value
            _ = try await recording.value
            let timeline = try await store.timeline(playerId: "ann")
            #expect(timeline.contains { $0.type == .notificationReceived && $0.transactionId == paused.chain })
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// Events and purchases of 30 transactions (ids of `series`), in a seeded order: a
    /// quarter of them Google Play's; player-less events (some without a store, as events
    /// before migration 12) before and after their transaction's delivery, or of a transaction
    /// never delivered; players' own client events; times drawn from a few seconds, so that
    /// ties and times out of id order are common.
    private static func eventsAndPurchases(
        on store: any SQLLedgerStore, series: Int, random: inout SeededGenerator
    ) async throws {
        var steps: [(delivery: Delivery?, event: HistoryEvent?)] = []
        for index in 0..<30 {
            let play = index % 4 == 3
            let id =
                play ? "GPA.2222-\(series)-\(10_000 + index)" : String(4_000_000_000_000_000 + series * 1_000 + index)
            let kind: Store = play ? .googlePlay : .appStore
            let player = index % 3 == 0 ? "whale" : players[Int.random(in: 0..<players.count, using: &random)]
            if index % 5 != 4 {
                steps.append((Fixture.delivery(transactionId: id, player: player, store: kind), nil))
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let type: HistoryEventType = Bool.random(using: &random) ? .notificationReceived : .awaitingReport
                let eventStore: Store? = kind == .appStore && Bool.random(using: &random) ? nil : kind
                steps.append(
                    (nil, HistoryEvent(type: type, transactionId: id, store: eventStore, createdAt: time(&random))))
            }
            steps.append(
                (nil, HistoryEvent(type: .clientEvent, playerId: player, transactionId: id, createdAt: time(&random))))
        }
        steps.shuffle(using: &random)
        for step in steps {
            if let delivery = step.delivery { _ = try await store.deliver(delivery) }
            if let event = step.event { _ = try await store.appendEvent(event) }
        }
    }

    private static func time(_ random: inout SeededGenerator) -> Date {
        start.addingTimeInterval(Double(Int.random(in: 0..<8, using: &random)))
    }

    /// Each player's timeline as the rows say: the player's events, and the player-less
    /// events whose store and transaction are those of the player's purchases; by time, then id.
    private static func timelinesAsTheEventsSay(_ store: any SQLLedgerStore) async throws -> [String: [Int64]] {
        let owners = try await store.read(
            .rows(LedgerStatement("SELECT transaction_id, store, player_id FROM purchases")) {
                (
                    "\(try $0.requiredText("store"))/\(try $0.requiredText("transaction_id"))",
                    try $0.requiredText("player_id")
                )
            })
        let ownerOf = Dictionary(uniqueKeysWithValues: owners)
        let events = try await store.read(
            .rows(
                LedgerStatement(
                    "SELECT id, player_id, transaction_id, \(LedgerSQL.storeOfEvent) AS store, created_at FROM history_events"
                )
            ) { row in
                (
                    id: try row.requiredInteger("id"), player: try row.text("player_id"),
                    key: "\(try row.requiredText("store"))/\(try row.text("transaction_id") ?? "")",
                    at: try row.requiredTimestamp("created_at")
                )
            })
        var timelines: [String: [(at: Date, id: Int64)]] = [:]
        for event in events {
            guard let player = event.player ?? ownerOf[event.key] else { continue }
            timelines[player, default: []].append((event.at, event.id))
        }
        return timelines.mapValues { $0.sorted { ($0.at, $0.id) < ($1.at, $1.id) }.map(\.id) }
    }

    private static func expectTimelinesAsTheEventsSay(_ store: any SQLLedgerStore) async throws {
        let expected = try await timelinesAsTheEventsSay(store)
        let types = try await store.read(
            .rows(LedgerStatement("SELECT id, type FROM history_events")) {
                (try $0.requiredInteger("id"), HistoryEventType(rawValue: try $0.requiredText("type")))
            })
        let typeOf = Dictionary(uniqueKeysWithValues: types)
        for player in players {
            let timeline = expected[player] ?? []
            #expect(try await store.timeline(playerId: player).compactMap(\.id) == timeline, "\(player)")
            for limit in [1, 2, 7] {
                var paged: [Int64] = []
                var cursor: LedgerCursor?
                repeat {
                    let page = try await store.timeline(
                        playerId: player, page: LedgerPageRequest(after: cursor, limit: limit))
                    paged += page.items.compactMap(\.id)
                    cursor = page.next
                } while cursor != nil
                #expect(paged == timeline, "\(player), pages of \(limit)")
            }
            let newest = timeline.sorted(by: >)
            for filter in [nil, [HistoryEventType.notificationReceived], [.clientEvent, .awaitingReport]] {
                let wanted = newest.filter { id in filter.map { $0.contains(typeOf[id]!) } ?? true }
                for limit in [1, 3, 100] {
                    var read: [Int64] = []
                    var before: Int64?
                    while true {
                        let page = try await store.timelineNewestFirst(
                            playerId: player, beforeId: before, limit: limit, types: filter
                        ).compactMap(\.id)
                        read += page
                        guard page.count == limit, let last = page.last else { break }
                        before = last
                    }
                    #expect(read == wanted, "\(player), newest first by \(limit), \(filter ?? [])")
                }
            }
        }
    }
}
