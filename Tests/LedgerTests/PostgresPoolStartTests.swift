import Foundation
import LedgerTestSupport
import Logging
import Synchronization
import Testing

@testable import Ledger

/// A PostgreSQL store that runs its own pool leases no connection before the pool runs.
struct PostgresPoolStartTests {
    @Test("leases that wait for the pool's start go on when it opens, and later ones do not wait")
    func waitersResumeAtOpen() async throws {
        let start = PostgresPoolStart()
        let finished = Counter()
        var waiters: [Task<Void, Never>] = []
        for _ in 0..<3 {
            waiters.append(
                Task {
                    await start.started()
                    finished.add()
                })
        }
        while start.waitingCount < 3 { await Task.yield() }
        #expect(finished.value == 0, "no lease goes on before the pool starts")
        start.open()
        for waiter in waiters { await waiter.value }
        #expect(finished.value == 3)
        #expect(start.waitingCount == 0)
        await start.started()
        start.open()
    }

    @Test("a store migrated right after it is made leases nothing before its pool runs")
    func noLeaseBeforeRun() async throws {
        let database = try await StoreKind.postgres.makeDatabase()
        let messages = LoggedMessages()
        let logger = Logger(label: "storekeeper.ledger.test") { _ in LoggedMessages.Handler(messages: messages) }
        for _ in 0..<10 {
            let store = try PostgresLedgerStore(url: database.url, logger: logger)
            try await store.migrate()
            try await store.close()
        }
        let early = messages.all.filter { $0.contains("hasn't been called yet") }
        // Without the start, most stores warn (3 of 5 in a run here). One warning is let
        // pass: a run task preempted between opening the start and run() setting its flag.
        #expect(early.count <= 1, "PostgresNIO saw leases before run(): \(early)")
    }
}

/// Every message logged at warning level or above, from any number of loggers.
private final class LoggedMessages: Sendable {
    private let messages = Mutex<[String]>([])

    var all: [String] { messages.withLock { $0 } }

    /// A log handler that keeps its messages in a ``LoggedMessages``.
    struct Handler: LogHandler {
        let messages: LoggedMessages
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .warning

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            messages.messages.withLock { $0.append(event.message.description) }
        }
    }
}

/// A count that tasks add to.
private final class Counter: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func add() { count.withLock { $0 += 1 } }
}
