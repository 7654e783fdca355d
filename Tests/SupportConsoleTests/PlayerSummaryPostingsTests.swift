import Foundation
import Ledger
import LedgerTestSupport
import Testing

@testable import SupportConsole

/// The player page counts its manual grants and lists the newest by one key
/// (``ManualPostingKey``: time, actor and reason), on both ledgers: grants that share a
/// millisecond are told apart by their actor or reason alike in the count and in the list,
/// and the newest `limit` listed are `limit` postings, whatever instants they share.
struct PlayerSummaryPostingsTests {
    @Test(
        "grants in one millisecond are counted and listed alike, the newest `limit` listed",
        arguments: StoreKind.allCases)
    func postingsOfOneMillisecond(_ kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let clock = ManualClock()
        let store: any LedgerStore =
            switch kind {
            case .sqlite:
                try SQLiteLedgerStore(path: try #require(database.directory) + "/ledger.sqlite", clock: { clock.now })
            case .postgres: try PostgresLedgerStore(url: database.url, clock: { clock.now })
            }
        do {
            try await store.migrate()
            func grant(_ grants: Grants, _ reason: String, _ actor: String, player: String = "vera") async throws {
                _ = try await store.grantManually(playerId: player, grants: grants, reason: reason, actor: actor)
            }
            // One posting of several items; a millisecond later two grants for one reason by
            // two actors, one by the first actor for another reason, and one more by the
            // first actor for the first reason (the same posting: its coins add up), and
            // another player's grant.
            try await grant(["coins": 1, "gems": 2, "tickets": 3], "several", "ann")
            clock.advance(by: 0.001)
            try await grant(["coins": 5], "ticket 1", "ann")
            try await grant(["coins": 7], "ticket 1", "bob")
            try await grant(["coins": 3], "ticket 2", "ann")
            try await grant(["coins": 2, "gems": 1], "ticket 1", "ann")
            try await grant(["coins": 9], "ticket 1", "ann", player: "other")

            let totals = try await store.playerTotals(playerId: "vera")
            #expect(totals.manualGrantCount == 4)
            func listed(_ limit: Int) async throws -> [PlayerSummary.Posting] {
                let entries = try await store.newestManualEntries(playerId: "vera", limit: limit)
                return PlayerSummary(totals: totals, wallet: [:], manualEntries: entries) { _, _ in nil }.manualGrants
            }
            let all = try await listed(200)
            #expect(
                all.map(Self.describe) == [
                    "ann several coins=1 gems=2 tickets=3", "ann ticket 1 coins=7 gems=1", "ann ticket 2 coins=3",
                    "bob ticket 1 coins=7",
                ])
            #expect(Set(all.dropFirst().map(\.createdAt)).count == 1, "the last three share their millisecond")
            #expect(all[0].createdAt < all[1].createdAt)
            for limit in 1...4 {
                #expect(try await listed(limit) == Array(all.suffix(limit)), "the newest \(limit)")
            }
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// A posting as `actor reason item=amount …`, items in order.
    private static func describe(_ posting: PlayerSummary.Posting) -> String {
        ([posting.actor, posting.reason] + posting.grants.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
            .joined(separator: " ")
    }
}
