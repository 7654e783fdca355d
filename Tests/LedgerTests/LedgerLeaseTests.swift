import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// Leases in the checkpoints table (one reconciler pass at a time across instances) and
/// the checkpoint that only moves forward under one, on both stores.
@Suite("LedgerStore leases (SQLite and PostgreSQL)")
struct LedgerLeaseTests {
    static let lease = "reconciler.lease"
    static let checkpoint = "reconciler.notification_history"

    @Test(
        "one holder at a time: renewed by its holder, taken over only once expired, released",
        arguments: StoreKind.allCases)
    func oneHolderAtATime(kind: StoreKind) async throws {
        try await withClockedStores(kind) { first, second, clock in
            let start = clock.now
            let taken = try await first.acquireLease(Self.lease, holder: "A", duration: 60)
            #expect(taken == Lease(name: Self.lease, holder: "A", expiresAt: start.addingTimeInterval(60)))
            #expect(try await second.acquireLease(Self.lease, holder: "B", duration: 60) == taken, "A holds it")

            clock.advance(by: 30)
            let renewed = try await first.acquireLease(Self.lease, holder: "A", duration: 60)
            #expect(renewed.expiresAt == start.addingTimeInterval(90))
            clock.advance(by: 40)
            #expect(try await second.acquireLease(Self.lease, holder: "B", duration: 60).holder == "A", "renewed")

            clock.advance(by: 20)
            let takenOver = try await second.acquireLease(Self.lease, holder: "B", duration: 60)
            #expect(takenOver.holder == "B", "expired: another holder takes it")
            #expect(try await first.acquireLease(Self.lease, holder: "A", duration: 60).holder == "B")

            try await first.releaseLease(Self.lease, holder: "A")
            #expect(try await first.acquireLease(Self.lease, holder: "A", duration: 60).holder == "B", "not A's")
            try await second.releaseLease(Self.lease, holder: "B")
            #expect(try await first.acquireLease(Self.lease, holder: "A", duration: 60).holder == "A", "released")
        }
    }

    @Test("concurrent takers on separate connections: exactly one holds the lease", arguments: StoreKind.allCases)
    func concurrentTakers(kind: StoreKind) async throws {
        try await withStores(kind, count: 3) { stores, _ in
            let leases = try await withThrowingTaskGroup(of: (String, Lease).self) { group in
                for index in 0..<9 {
                    let store = stores[index % stores.count]
                    group.addTask {
                        (
                            "holder-\(index)",
                            try await store.acquireLease(Self.lease, holder: "holder-\(index)", duration: 60)
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = leases.filter { holder, lease in lease.holder == holder }
            #expect(winners.count == 1, "\(leases)")
            #expect(Set(leases.map(\.1.holder)).count == 1, "every taker sees the one holder")
        }
    }

    @Test("the checkpoint moves forward only, and only while its lease is held", arguments: StoreKind.allCases)
    func checkpointAdvance(kind: StoreKind) async throws {
        try await withClockedStores(kind) { first, second, clock in
            let lease = try await first.acquireLease(Self.lease, holder: "A", duration: 60)
            #expect(try await first.advanceCheckpoint(Self.checkpoint, to: 2_000, holding: lease) == .advanced)
            #expect(try await first.checkpoint(Self.checkpoint) == "2000")
            #expect(try await first.advanceCheckpoint(Self.checkpoint, to: 1_000, holding: lease) == .unchanged)
            #expect(try await first.advanceCheckpoint(Self.checkpoint, to: 2_000, holding: lease) == .unchanged)
            #expect(try await first.checkpoint(Self.checkpoint) == "2000", "never backwards")
            #expect(
                try await first.advanceCheckpoint(Self.checkpoint, to: 10_000_000_000_000, holding: lease) == .advanced,
                "compared as numbers, not as text")

            let notHeld = Lease(name: Self.lease, holder: "B", expiresAt: lease.expiresAt)
            #expect(
                try await second.advanceCheckpoint(Self.checkpoint, to: 20_000_000_000_000, holding: notHeld)
                    == .leaseLost)

            clock.advance(by: 61)
            #expect(
                try await first.advanceCheckpoint(Self.checkpoint, to: 20_000_000_000_000, holding: lease)
                    == .leaseLost,
                "expired, even before anyone took it over")
            let taken = try await second.acquireLease(Self.lease, holder: "B", duration: 60)
            #expect(
                try await first.advanceCheckpoint(Self.checkpoint, to: 30_000_000_000_000, holding: lease) == .leaseLost
            )
            #expect(try await first.checkpoint(Self.checkpoint) == "10000000000000", "a lost lease writes nothing")

            try await second.setCheckpoint(Self.checkpoint, value: "damaged")
            #expect(try await second.advanceCheckpoint(Self.checkpoint, to: 5, holding: taken) == .advanced)
            #expect(try await second.checkpoint(Self.checkpoint) == "5", "a value that is no number is replaced")
            try await second.releaseLease(Self.lease, holder: "B")
            #expect(try await second.advanceCheckpoint(Self.checkpoint, to: 6, holding: taken) == .leaseLost)
        }
    }
}

/// Runs `body` with two migrated stores of `kind` on one fresh database (like two server
/// processes) that both read `clock`.
func withClockedStores(
    _ kind: StoreKind, _ body: (any LedgerStore, any LedgerStore, ManualClock) async throws -> Void
) async throws {
    let database = try await kind.makeDatabase()
    defer { database.remove() }
    let clock = ManualClock()
    let now: @Sendable () -> Date = { clock.now }
    let stores: [any LedgerStore] = try (0..<2).map { _ in
        switch try StoreURL(parsing: database.url) {
        case .sqlite(let path): try SQLiteLedgerStore(path: path, clock: now)
        case .postgres(let settings): PostgresLedgerStore(configuration: settings.clientConfiguration, clock: now)
        case .sqliteInMemory: throw LedgerError.invalidStoreURL(database.url, reason: "a test database has a file")
        }
    }
    do {
        for store in stores { try await store.migrate() }
        try await body(stores[0], stores[1], clock)
        for store in stores { try await store.close() }
    } catch {
        for store in stores { try? await store.close() }
        throw error
    }
}
