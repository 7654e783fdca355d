import Foundation
import Ledger
import Synchronization

/// Whether the ledger takes writes now, for `/healthz`: not when a request's write failed
/// with a storage fault within ``failureMemory`` (``recordFailedWrite()``, on the error path
/// only), nor when a real write fails: the checkpoint ``checkpointName`` set to the time,
/// committed and synced like a delivery, made at most once per ``interval`` whatever the
/// number of health checks (the answers in between are the last probe's).
///
/// Both are needed on a full disk: the probe alone writes a page or two, which SQLite can
/// put in the room its write-ahead log took for a larger write that failed (measured by
/// `Scripts/deploy/storage_faults.py`: the probe succeeded while every delivery failed), and
/// the failed requests alone say nothing while no player buys.
final class LedgerWriteProbe: Sendable {
    /// The checkpoint the probe writes (a row of its own, read by nothing).
    static let checkpointName = "healthz.write_probe"
    /// The least time between two probes.
    static let interval: Duration = .seconds(1)
    /// How long a request's failed write makes the ledger not writable.
    static let failureMemory: Duration = .seconds(2)

    private struct State {
        var last: (at: ContinuousClock.Instant, writable: Bool)?
        var running: Task<Bool, Never>?
        var lastFailedWrite: ContinuousClock.Instant?
    }

    private let store: any LedgerStore
    private let state = Mutex(State())

    init(store: any LedgerStore) {
        self.store = store
    }

    /// Whether the last write probe succeeded, probing again when the last is older than
    /// ``interval`` (callers that arrive during a probe wait for it).
    func writable() async -> Bool {
        let now = ContinuousClock.now
        let answer: Answer = state.withLock { state in
            if let failed = state.lastFailedWrite, now - failed < Self.failureMemory { return .known(false) }
            if let last = state.last, now - last.at < Self.interval { return .known(last.writable) }
            if let running = state.running { return .pending(running) }
            let probe = Task { await self.probe() }
            state.running = probe
            return .pending(probe)
        }
        switch answer {
        case .known(let writable): return writable
        case .pending(let probe): return await probe.value
        }
    }

    /// A request's write failed with a storage fault (``LedgerError/storageFault``).
    func recordFailedWrite() {
        let now = ContinuousClock.now
        state.withLock { $0.lastFailedWrite = now }
    }

    /// The last probe's answer, or the probe under way.
    private enum Answer {
        case known(Bool)
        case pending(Task<Bool, Never>)
    }

    private func probe() async -> Bool {
        let writable: Bool
        do {
            try await store.setCheckpoint(
                Self.checkpointName, value: String(Int64(Date().timeIntervalSince1970 * 1000)))
            writable = true
        } catch {
            writable = false
        }
        state.withLock { state in
            state.last = (ContinuousClock.now, writable)
            state.running = nil
        }
        return writable
    }
}
