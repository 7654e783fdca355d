import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// Rolling upgrades: instances of the previous release keep serving while a new one
/// migrates the shared ledger, and every migration keeps the previous release's statements
/// valid (docs/deploy.md, "Upgrades").
struct RollingUpgradeTests {
    /// PostgreSQL only: an SQLite ledger is one process's file, so no instance of the previous
    /// release runs beside the one that migrates it.
    @Test("the previous release's instance delivers while the newest migration runs beside it")
    func previousReleaseDeliversDuringTheNewestMigration() async throws {
        let database = try await StoreKind.postgres.makeDatabase()
        defer { database.remove() }
        let previous = try #require(LedgerSchema.migrations.dropLast().last?.version)
        let old = try #require(try database.open() as? any SQLLedgerStore)
        try await old.migrate(through: previous)
        #expect(try await old.appliedMigrations().last == previous)
        // The previous release delivers by order with the statement it shipped: migration 8's
        // function, with its 16 arguments.
        @Sendable func deliverOnce(_ store: any SQLLedgerStore) async throws -> String {
            // (Its order, without the order's event, which names no store either way.)
            let order = Fixture.order()
            try await store.writeAutocommit(.execute(LedgerSQL.insertOrder(order)))
            let delivery = Fixture.delivery(orderId: order.orderId)
            guard try await Self.deliverByOrderAsThePreviousRelease(store, delivery, order.appAccountToken)
            else { throw LedgerError.corruptRow("\(delivery.transactionId) was not delivered") }
            #expect(try await !Self.deliverByOrderAsThePreviousRelease(store, delivery, order.appAccountToken))
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
        for id in delivered {
            let purchase = try await new.purchase(store: .appStore, transactionId: id)
            #expect(purchase?.store == .appStore)
            #expect(try await new.outboxMessage(idempotencyKey: id) != nil, "the previous release's outbox key")
        }
        #expect(try await new.deliver(newDelivery).purchase.transactionId == newDelivery.transactionId)
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
                    "ALTER TABLE ", "CREATE OR REPLACE TRIGGER ", "CREATE VIRTUAL TABLE ",
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

    /// Delivers by order as the release before migration 12 did on PostgreSQL: `true` when
    /// delivered, `false` for `needs_binding`.
    private static func deliverByOrderAsThePreviousRelease(
        _ store: any SQLLedgerStore, _ delivery: Delivery, _ appAccountToken: String
    ) async throws -> Bool {
        let plan = OrderDeliveryPlan(delivery, appAccountToken: appAccountToken, at: Date().ledgerNormalized)
        let purchase = plan.purchase
        let call = LedgerStatement(
            """
            SELECT outcome FROM storekeeper_deliver_by_order(
                CAST(? AS INTEGER), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(LedgerSQL.transactionLockSpace), .text(purchase.transactionId),
                .text(purchase.originalTransactionId), .text(purchase.playerId), .optional(purchase.orderId),
                .text(plan.appAccountToken), .text(purchase.productId), .integer(Int64(purchase.quantity)),
                .text(purchase.environment.rawValue), .text(purchase.source.rawValue),
                .text(LedgerJSON.flags(purchase.flags)), .text(LedgerJSON.text(purchase.grants)),
                .timestamp(purchase.purchaseDate), .timestamp(purchase.deliveredAt), .text(try plan.outboxPayload()),
                .text(try LedgerJSON.text(LedgerRules.deliveredEvent(purchase).detail)),
            ])
        // As it did, it runs the statement again when PostgreSQL aborted it as a deadlock (here:
        // with the migration's ALTER TABLEs).
        var attempt = 1
        while true {
            do {
                let outcomes = try await store.writeAutocommit(.rows(call) { try $0.requiredText("outcome") })
                return outcomes.first == "delivered"
            } catch LedgerError.database(_, let sqlState) where LedgerError.isTransient(sqlState) && attempt < 5 {
                attempt += 1
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
