import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// Rolling upgrades: instances of the previous release keep serving while a new one
/// migrates the shared ledger, and every migration keeps the previous release's statements
/// valid (docs/deploy.md, "Upgrades").
struct RollingUpgradeTests {
    @Test(
        "the previous release's instance delivers while the newest migration runs beside it",
        arguments: StoreKind.allCases)
    func previousReleaseDeliversDuringTheNewestMigration(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let previous = LedgerSchema.newestVersion - 1
        let old = try #require(try database.open() as? any SQLLedgerStore)
        try await old.migrate(through: previous)
        #expect(try await old.appliedMigrations().last == previous)
        // The previous release stands in as this build's statements on the previous schema,
        // delivering by order: that path reads nothing the newest migration adds (refund
        // notices, version 11, are read by the general path; their own rollout is tested
        // below).
        @Sendable func deliverOnce(_ store: any LedgerStore) async throws -> String {
            let order = try await store.createOrder(Fixture.order())
            let delivery = Fixture.delivery(orderId: order.orderId)
            guard case .delivered = try await store.deliverByOrder(delivery, appAccountToken: order.appAccountToken)
            else { throw LedgerError.corruptRow("\(delivery.transactionId) was not delivered") }
            #expect(try await store.deliverByOrder(delivery, appAccountToken: order.appAccountToken) == .needsBinding)
            return delivery.transactionId
        }
        for _ in 0..<20 { _ = try await deliverOnce(old) }

        // The old instance keeps delivering (and re-delivering) until the new one has migrated
        // and then some; the new instance migrates meanwhile and delivers too.
        let migrated = Flag()
        let oldDeliveries = Task {
            var delivered: [String] = []
            var afterMigration = 0
            while afterMigration < 20 {
                delivered.append(try await deliverOnce(old))
                if await migrated.isSet { afterMigration += 1 }
            }
            return delivered
        }
        let new = try database.open()
        try await new.migrate()
        await migrated.set()
        let newDelivery = Fixture.delivery()
        _ = try await new.deliver(newDelivery)
        let delivered = try await oldDeliveries.value

        #expect(try await new.appliedMigrations().last == LedgerSchema.newestVersion)
        let expected: Int64 = 100 * Int64(20 + delivered.count + 1)
        let wallet = try await new.wallet(playerId: "player-1")
        #expect(wallet == ["coins": expected])
        for id in delivered { #expect(try await new.purchase(transactionId: id) != nil) }
        #expect(try await old.deliver(newDelivery).purchase.transactionId == newDelivery.transactionId)
        try await old.close()
        try await new.close()
    }

    /// Every migration after the first keeps the previous release's statements valid: it
    /// creates tables, indexes, functions and triggers (which carry the previous release's
    /// writes over into a new table), adds columns that are nullable or have a default,
    /// backfills with UPDATE or INSERT, drops an index only to create it again under the
    /// same name, rebuilds a table (SQLite, to widen a CHECK: a new table renamed to the
    /// dropped one's name) and replaces a constraint under its own name (PostgreSQL, `NOT
    /// VALID`: the rows already satisfy the narrower one, and no scan blocks the previous
    /// release's writes). A change outside these (a dropped or renamed table or column, a
    /// new NOT NULL column without a default, a changed type) needs a release that stops
    /// writing it first, and fails here.
    @Test(arguments: LedgerSchema.migrations.dropFirst().map(\.version))
    func migrationKeepsThePreviousReleaseWorking(version: Int64) throws {
        let migration = try #require(LedgerSchema.migrations.first { $0.version == version })
        for statements in [migration.sqlite, migration.postgres] {
            let created = Set(statements.compactMap { Self.indexName(in: $0, after: "CREATE INDEX ") })
            let texts = statements.map { $0.uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            for text in texts {
                if let dropped = Self.indexName(in: text, after: "DROP INDEX ") {
                    #expect(
                        created.map { $0.uppercased() }.contains(dropped),
                        "migration \(version) drops index \(dropped) for good")
                    continue
                }
                if let dropped = Self.indexName(in: text, after: "DROP TABLE ") {
                    #expect(
                        texts.contains { $0.hasPrefix("ALTER TABLE ") && $0.hasSuffix(" RENAME TO \(dropped)") },
                        "migration \(version) drops table \(dropped) for good")
                    continue
                }
                if text.hasPrefix("ALTER TABLE "), text.contains(" RENAME TO ") {
                    continue  // a rebuilt table taking the dropped one's name (checked above)
                }
                if let range = text.range(of: " DROP CONSTRAINT ") {
                    let name = text[range.upperBound...].split(separator: " ").first.map(String.init) ?? ""
                    #expect(
                        texts.contains { $0.contains(" ADD CONSTRAINT \(name) ") && $0.hasSuffix(" NOT VALID") },
                        "migration \(version) drops constraint \(name) for good")
                    continue
                }
                if text.hasPrefix("ALTER TABLE "), text.contains(" ADD CONSTRAINT "), text.hasSuffix(" NOT VALID") {
                    continue  // a constraint replaced under its own name (checked above)
                }
                let allowed = [
                    "CREATE TABLE ", "CREATE INDEX ", "CREATE UNIQUE INDEX ", "CREATE OR REPLACE FUNCTION ",
                    "CREATE FUNCTION ", "CREATE TRIGGER ", "UPDATE ", "INSERT INTO ", "INSERT OR IGNORE INTO ",
                    "ALTER TABLE ",
                ]
                #expect(allowed.contains { text.hasPrefix($0) }, "migration \(version): \(text.prefix(80))")
                guard text.hasPrefix("ALTER TABLE ") else { continue }
                #expect(text.contains(" ADD COLUMN "), "migration \(version) alters a table: \(text.prefix(80))")
                #expect(
                    !text.contains(" NOT NULL") || text.contains(" DEFAULT "),
                    "migration \(version) adds a NOT NULL column without a default: \(text.prefix(80))")
            }
        }
    }

    /// The index name after `keyword`, when `statement` starts with it.
    private static func indexName(in statement: String, after keyword: String) -> String? {
        let words = statement.trimmingCharacters(in: .whitespacesAndNewlines)
        guard words.uppercased().hasPrefix(keyword) else { return nil }
        return words.dropFirst(keyword.count).split(whereSeparator: \.isWhitespace).first.map(String.init)
    }
}

/// A one-way flag shared between tasks.
private actor Flag {
    private(set) var isSet = false
    func set() { isSet = true }
}
