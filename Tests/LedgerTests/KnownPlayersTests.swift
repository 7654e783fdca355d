import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// `known_players` (migration 14, ``LedgerSchema/knownPlayers``): the players of orders,
/// purchases and balances, backfilled and then kept by triggers; and support's player search
/// through its trigram index, which answers exactly what the statement before it answered.
struct KnownPlayersTests {
    /// The players of orders, purchases and balances, in byte order: what support's search
    /// read before migration 14, and what `known_players` must hold.
    private static let union = """
        SELECT player_id FROM orders UNION SELECT player_id FROM purchases UNION SELECT player_id FROM balances
        """

    @Test(
        "known_players is the union of the players of orders, purchases and balances, before and after migration 14",
        arguments: StoreKind.allCases)
    func knownPlayersAreTheUnion(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let store = try #require(try database.open() as? any SQLLedgerStore)
        do {
            try await store.migrate(through: 13)
            try await Self.ordinaryOperations(on: store, suffix: "before")
            try await store.migrate()
            #expect(try await Self.players(store, "SELECT player_id FROM known_players").count == 5)
            #expect(
                try await Self.players(store, "SELECT player_id FROM known_players") == Self.players(store, Self.union))
            try await Self.ordinaryOperations(on: store, suffix: "after")
            let known = try await Self.players(store, "SELECT player_id FROM known_players")
            #expect(known.count == 10)
            #expect(known == (try await Self.players(store, Self.union)))
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// PostgreSQL creates the triggers first and backfills after their transaction committed:
    /// a delivery in flight when migration 14 starts (its purchase written, before any
    /// trigger existed) holds the migration at `CREATE TRIGGER … ON purchases`, commits
    /// untracked, and the backfill, which runs after, records its player.
    @Test("PostgreSQL: the player of a delivery in flight when migration 14 starts is recorded")
    func inFlightPlayerIsBackfilled() async throws {
        let database = try await PostgresCluster.shared.createDatabase()
        let inFlight = try PausedDelivery(url: database.url)
        let store = inFlight.store
        try await store.migrate(through: 13)
        _ = try await store.createOrder(Fixture.order(player: "before"))
        let paused = await inFlight.start(player: "in-flight")
        let migration = Task { try await store.migrate() }
        do {
            try await Self.waitUntilTheMigrationWaits(store)
            #expect(try await store.appliedMigrations().last == 13)
            inFlight.release()
            _ = try await paused.value
            try await migration.value
            _ = try await store.deliver(Fixture.delivery(player: "after"))
            let known = try await Self.players(store, "SELECT player_id FROM known_players")
            #expect(known == ["after", "before", "in-flight"])
            #expect(known == (try await Self.players(store, Self.union)))
            try await store.close()
        } catch {
            inFlight.release()
            _ = try? await paused.value
            _ = try? await migration.value
            try? await store.close()
            throw error
        }
    }

    /// Polls until migration 14's `CREATE TRIGGER` waits for a lock (how long it takes does
    /// not matter: nothing moves the paused delivery on until the test does).
    private static func waitUntilTheMigrationWaits(_ store: PostgresLedgerStore) async throws {
        let waiting = LedgerStatement(
            """
            SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database()
            AND wait_event_type = 'Lock' AND query LIKE 'CREATE OR REPLACE TRIGGER%'
            """)
        let deadline = ContinuousClock.now + .seconds(60)
        while try await store.read(.first(waiting) { try $0.requiredInteger("waiting") }) != 1 {
            guard ContinuousClock.now < deadline else {
                Issue.record("migration 14 did not wait for the delivery within 60 s")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// `pg_trgm` is a trusted extension: the database's owner may create it, a role that may
    /// only create tables may not, and then the migration says so and applies nothing of
    /// version 14.
    @Test("PostgreSQL: a role that may not create pg_trgm is told so; the database's owner may")
    func trigramExtensionNeedsTheRight() async throws {
        let database = try await PostgresCluster.shared.createDatabase()
        let role = "ledger_tables_only_\(UUID().uuidString.prefix(8).lowercased())"
        try await PostgresCluster.shared.execute(database: "postgres", "CREATE ROLE \(role) LOGIN")
        try await PostgresCluster.shared.execute(database: database.name, "GRANT CREATE ON SCHEMA public TO \(role)")
        let url = database.url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://\(role)@")
        let store = try #require(try makeLedgerStore(url: url) as? any SQLLedgerStore)
        do {
            let error = await #expect(throws: LedgerError.self) { try await store.migrate() }
            guard case .databaseFeatureMissing(let detail) = error else {
                Issue.record("migrating without the right to create pg_trgm threw \(String(describing: error))")
                try await store.close()
                return
            }
            #expect(detail.contains("pg_trgm") && detail.contains("42501"), "\(detail)")
            #expect(try await store.appliedMigrations() == Array(1...13))
            try await PostgresCluster.shared.execute(
                database: "postgres", "ALTER DATABASE \(database.name) OWNER TO \(role)")
            try await store.migrate()
            #expect(try await store.appliedMigrations() == LedgerSchema.migrations.map(\.version))
            _ = try await store.createOrder(Fixture.order(player: "Trigram-Owner"))
            #expect(try await store.players(resembling: "gram-o", limit: 5) == ["Trigram-Owner"])
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// An order left open, a delivery by order, one without an order and refunded, a staff
    /// grant to a player with nothing else, and a spend: each for a player of its own (ids
    /// ending in `suffix`).
    private static func ordinaryOperations(on store: any LedgerStore, suffix: String) async throws {
        _ = try await store.createOrder(Fixture.order(player: "open-\(suffix)"))
        let order = try await store.createOrder(Fixture.order(player: "Ordered-\(suffix)"))
        _ = try await store.deliverByOrder(
            Fixture.delivery(player: order.playerId, orderId: order.orderId), appAccountToken: order.appAccountToken)
        let refunded = Fixture.delivery(player: "refunded-\(suffix)")
        _ = try await store.deliver(refunded)
        _ = try await store.reverse(store: .appStore, transactionId: refunded.transactionId, reason: "refund")
        _ = try await store.grantManually(
            playerId: "granted-\(suffix)", grants: ["coins": 50], reason: "goodwill", actor: "staff-1")
        _ = try await store.deliver(Fixture.delivery(player: "spender-é-\(suffix)"))
        _ = try await store.spend(
            SpendRequest(
                playerId: "spender-é-\(suffix)", idempotencyKey: "spend-1", items: ["coins": 10], reason: "shop",
                actor: "game"))
    }

    @Test(
        "the player search answers as the statement before known_players did, for every kind of query",
        arguments: StoreKind.allCases)
    func searchAnswersAsBefore(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let store = try #require(store as? any SQLLedgerStore)
            var random = SeededGenerator(seed: 14)
            var ids = Set<String>()
            while ids.count < 300 {
                let length = Int.random(in: 1...12, using: &random)
                ids.insert(String((0..<length).map { _ in Self.alphabet.randomElement(using: &random)! }))
            }
            ids.formUnion(["Bob", "bob", "BOB_7", "Ärger", "ärger", "straße", "STRASSE", "K-9", "\u{212A}-9", "张三"])
            for (index, player) in ids.sorted().enumerated() {
                switch index % 3 {
                case 0: _ = try await store.createOrder(Fixture.order(player: player))
                case 1: _ = try await store.deliver(Fixture.delivery(player: player))
                default:
                    _ = try await store.grantManually(
                        playerId: player, grants: ["coins": 1], reason: "test", actor: "staff")
                }
            }

            var queries: [String] = [
                "", "a", "A", "ä", "Ä", "%", "_", "\\", "\"", "%%", "a%", "_b", "\\\\", "\"\"", "ÄR", "är", "ärg",
                "ÄRG", "rger", "STRA", "ß", "k-9", "K-9", "\u{212A}", "张", "张三", "zz", "nobody-at-all", "\u{301}",
                "e\u{301}", "bob", "BOB", "o_7", "%b%", "a\"b",
            ]
            let sorted = ids.sorted()
            for _ in 0..<150 {
                let scalars = Array(sorted.randomElement(using: &random)!.unicodeScalars)
                let start = Int.random(in: 0..<scalars.count, using: &random)
                let end = Int.random(in: (start + 1)...scalars.count, using: &random)
                var query = String(String.UnicodeScalarView(scalars[start..<end]))
                if Bool.random(using: &random) { query = query.uppercased() }
                queries.append(query)
            }
            for query in queries {
                for limit in [3, 1_000] {
                    let before = try await Self.playersBefore(containing: query, limit: limit, store: store)
                    let now = try await store.players(resembling: query, limit: limit)
                    #expect(now == before, "query \(query.debugDescription), limit \(limit)")
                }
            }
            for limit in [2, 1_000] {
                let before = try await Self.players(
                    store,
                    """
                    SELECT player_id FROM (\(Self.union)) AS known
                    WHERE length(player_id) <> \(store.dialect == .postgres ? "octet_length(player_id)" : "length(CAST(player_id AS BLOB))")
                    ORDER BY \(store.dialect == .postgres ? "player_id COLLATE \"C\"" : "player_id") LIMIT \(limit)
                    """)
                #expect(try await store.players(outsideASCIILimit: limit) == before)
            }
        }
    }

    /// Letters of both cases, digits, LIKE's and FTS5's special characters, letters outside
    /// ASCII whose case differs, a combining mark, the Kelvin sign (which Unicode lowercases
    /// to `k`), `ß` and a Han character.
    private static let alphabet: [Character] = Array("aAbBkKzZ09-_%\\\" .äÄéÉßİ张") + ["\u{212A}", "e\u{301}"]

    /// Support's player search as it was before migration 14: a walk of the union of the
    /// three tables' players (kept here only, to compare with).
    private static func playersBefore(containing query: String, limit: Int, store: any SQLLedgerStore) async throws
        -> [String]
    {
        let folded = LedgerSQL.asciiLowercased(query)
        guard limit > 0, !folded.isEmpty else { return [] }
        let postgres = store.dialect == .postgres
        let lowered = postgres ? "lower(player_id COLLATE \"C\")" : "lower(player_id)"
        let position = postgres ? "strpos(\(lowered), ?)" : "instr(\(lowered), ?)"
        let statement = LedgerStatement(
            """
            SELECT player_id FROM (\(union)) AS known
            WHERE \(position) > 0
            ORDER BY CASE WHEN \(lowered) = ? THEN 0 WHEN \(position) = 1 THEN 1 ELSE 2 END,
                length(player_id), \(postgres ? "player_id COLLATE \"C\"" : "player_id")
            LIMIT ?
            """,
            [.text(folded), .text(folded), .text(folded), .integer(Int64(limit))]
        )
        return try await store.read(.rows(statement) { try $0.requiredText("player_id") })
    }

    /// The `player_id`s `sql` answers, in byte order.
    private static func players(_ store: any SQLLedgerStore, _ sql: String) async throws -> [String] {
        let order = store.dialect == .postgres ? "player_id COLLATE \"C\"" : "player_id"
        return try await store.read(
            .rows(LedgerStatement("SELECT player_id FROM (\(sql)) AS players ORDER BY \(order)")) {
                try $0.requiredText("player_id")
            })
    }
}
