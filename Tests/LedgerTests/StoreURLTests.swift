import Foundation
import Ledger
import LedgerTestSupport
import Testing

@Suite("Store URLs")
struct StoreURLTests {
    @Test func sqlite() throws {
        #expect(try StoreURL(parsing: "sqlite:./storekeeper.sqlite") == .sqlite(path: "./storekeeper.sqlite"))
        #expect(try StoreURL(parsing: "sqlite:/var/lib/sk/ledger.db") == .sqlite(path: "/var/lib/sk/ledger.db"))
        #expect(try StoreURL(parsing: "sqlite:///var/lib/sk/ledger.db") == .sqlite(path: "/var/lib/sk/ledger.db"))
        #expect(try StoreURL(parsing: "sqlite::memory:") == .sqliteInMemory)
        #expect(throws: LedgerError.self) { try StoreURL(parsing: "sqlite:") }
    }

    @Test func postgres() throws {
        guard case .postgres(let url) = try StoreURL(parsing: "postgres://sk:p%40ss@db.internal:6543/ledger") else {
            Issue.record("not parsed as PostgreSQL")
            return
        }
        #expect(url.username == "sk")
        #expect(url.password == "p@ss")
        #expect(url.host == "db.internal")
        #expect(url.port == 6543)
        #expect(url.database == "ledger")
        #expect(url.sslMode == .prefer)
        #expect(url.orderDelivery == .function)

        let options = try PostgresStoreURL(
            parsing:
                "postgresql://sk@localhost/ledger?sslmode=disable&max_connections=5&host=/run/postgresql&order_delivery=statements"
        )
        #expect(options.orderDelivery == .statements)
        #expect(options.port == 5432)
        #expect(options.password == nil)
        #expect(options.sslMode == .disable)
        #expect(options.maximumConnections == 5)
        #expect(options.unixSocketDirectory == "/run/postgresql")
        #expect(options.clientConfiguration.unixSocketPath == "/run/postgresql/.s.PGSQL.5432")
    }

    @Test(arguments: [
        "", "mysql://u@h/db", "storekeeper.sqlite", "postgres://h/db", "postgres://u@h",
        "postgres://u@h/db?sslmode=maybe",
        "postgres://u@h/db?pool=3", "postgres://u@h/db?order_delivery=plpgsql",
    ])
    func invalid(url: String) throws {
        #expect(throws: LedgerError.self) { try StoreURL(parsing: url) }
        #expect(throws: LedgerError.self) { try makeLedgerStore(url: url) }
    }

    @Test func invalidURLErrorsSayWhatIsExpected() {
        let error = LedgerError.invalidStoreURL("mysql://x", reason: "unknown scheme")
        #expect(error.description.contains("sqlite:PATH"))
        #expect(error.description.contains("postgres://"))
    }

    @Test func inMemoryStore() async throws {
        let store = try makeLedgerStore(url: "sqlite::memory:")
        try await store.migrate()
        _ = try await store.deliver(Fixture.delivery())
        #expect(try await store.wallet(playerId: "player-1") == ["coins": 100])
        try await store.close()
    }
}
