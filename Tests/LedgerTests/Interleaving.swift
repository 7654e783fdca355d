import Foundation
import Ledger
import Synchronization
import Testing

/// Forces one interleaving of two ledger instances on one database: when the paused
/// store's transaction reaches ``point`` (it has read and not yet written), the
/// intruder starts on the other store, and the paused transaction continues only once the
/// intruder has finished or the database makes it wait for the paused transaction (a lock
/// PostgreSQL grants later, SQLite's busy writer lock). The test then knows which
/// happened: with the read and the decision in one locked transaction, the intruder waits.
final class Interleaving: Sendable {
    /// What the intruder did while the paused transaction waited at the pause point.
    enum Intrusion: Equatable, Sendable {
        /// The pause point was never reached.
        case notStarted
        /// The intruder ran to its end inside the paused transaction's window.
        case finished
        /// The database made the intruder wait for the paused transaction.
        case waited
    }

    private struct State {
        var intrude: (@Sendable () async throws -> Void)?
        var task: Task<Void, any Error>?
        var intruderEnded = false
        var databaseWaited = false
        var intrusion = Intrusion.notStarted
    }

    let point: LedgerPausePoint
    private let state = Mutex(State())
    private let databaseHasWaiter: @Sendable () async -> Bool

    /// - Parameters:
    ///   - point: Where the paused store's transaction waits (the first time only).
    ///   - databaseHasWaiter: Whether a session waits for a lock now (PostgreSQL's
    ///     `pg_locks`; SQLite reports through ``noteDatabaseWait()`` instead).
    init(at point: LedgerPausePoint, databaseHasWaiter: @escaping @Sendable () async -> Bool) {
        self.point = point
        self.databaseHasWaiter = databaseHasWaiter
    }

    /// The hook of the paused store.
    var hook: LedgerHook {
        { [self] reached in await pause(at: reached) }
    }

    /// Runs `intrude` (on the other store) when the paused store reaches the point.
    func intrude(with intrude: @escaping @Sendable () async throws -> Void) {
        state.withLock { $0.intrude = intrude }
    }

    /// What the intruder did inside the window.
    var intrusion: Intrusion { state.withLock { $0.intrusion } }

    /// Waits for the intruder to end, rethrowing its error.
    func intruderResult() async throws {
        guard let task = state.withLock({ $0.task }) else {
            Issue.record("the point \(point) was never reached")
            return
        }
        try await task.value
    }

    /// Records that the database made the intruder wait (SQLite's busy handler calls it).
    func noteDatabaseWait() {
        state.withLock { $0.databaseWaited = true }
    }

    private func pause(at reached: LedgerPausePoint) async {
        guard reached == point, let intrude = state.withLock({ $0.intrude.take() }) else { return }
        let task = Task { [self] in
            defer { state.withLock { $0.intruderEnded = true } }
            try await intrude()
        }
        state.withLock { $0.task = task }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let (ended, waited) = state.withLock { ($0.intruderEnded, $0.databaseWaited) }
            if ended {
                state.withLock { $0.intrusion = .finished }
                return
            }
            var intruderWaits = waited
            if !intruderWaits { intruderWaits = await databaseHasWaiter() }
            if intruderWaits {
                state.withLock { $0.intrusion = .waited }
                return
            }
            // Polls for one of the two conditions; the interleaving does not depend on how long.
            try? await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("the intruder neither finished nor waited within 30 s")
    }
}
