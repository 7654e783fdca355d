import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// `storekeeper fill-ledger` fills a new ledger on either database, prints its summary as
/// the last line, and refuses a ledger that already holds history.
struct FillLedgerCommandTests {
    @Test(
        "fill-ledger fills a new ledger and prints its summary; a second fill is refused", arguments: StoreKind.allCases
    )
    func fillsAndRefusesAgain(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let arguments = ["fill-ledger", "--database", database.url, "--purchases", "300", "--seed", "5"]
        let first = try await CommandLineRunner.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let lastLine = try #require(first.stdout.split(separator: "\n").last.map(String.init))
        let summary = try JSONDecoder().decode(HistoryFillSummary.self, from: Data(lastLine.utf8))
        #expect(summary.purchases == 300)
        #expect(summary.players > 1 && summary.whalePurchases > 1 && summary.seconds > 0)

        let store = try database.open()
        #expect(try await store.purchases(playerId: summary.whale).count == summary.whalePurchases)
        try await store.close()

        let second = try await CommandLineRunner.run(arguments)
        #expect(second.status != 0)
        #expect(second.stderr.contains("fill a new database"), "\(second.stderr)")
    }
}
