import Synchronization

/// Holds a store's first connection leases until the task that runs its pool has started.
///
/// A store that creates its own `PostgresClient` runs it in a task of its own, and may be
/// asked for a connection before that task got a thread (a migration right after the
/// store is made). The pool serves such a lease once it runs, but PostgresNIO warns about
/// each one ("`PostgresClient.run()` hasn't been called yet"): about 180 warnings in a test
/// suite's log. The run task opens this start just before it calls `run()`, which sets the
/// pool's running flag in its first statement, with no suspension in between; a lease
/// that waited is resumed on another thread, which is almost always later. Only when the
/// run task's thread is preempted in between does a warning remain: 1 to 4 in a suite run
/// beside other work, against about 180 before. Either way the lease is served once the
/// pool runs.
final class PostgresPoolStart: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Void, Never>])
        case started
    }

    private let state = Mutex(State.waiting([]))

    /// How many leases wait for the start (tests see a waiter arrive with it).
    var waitingCount: Int {
        state.withLock { state in
            guard case .waiting(let waiters) = state else { return 0 }
            return waiters.count
        }
    }

    /// Marks the pool started and resumes every lease that waited for it.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .started
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ``open()`` has been called (at once after that).
    func started() async {
        if state.withLock({ if case .started = $0 { true } else { false } }) { return }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                guard case .waiting(var waiters) = state else { return true }
                waiters.append(continuation)
                state = .waiting(waiters)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
