import Foundation
import Ledger
import Synchronization

/// Whether the ledger takes writes now, for `/healthz`: a real write (the checkpoint
/// ``checkpointName`` set to the time, committed and synced like a delivery, so SQLite
/// appends to its write-ahead log and a full disk fails it), made at most once per
/// ``interval`` whatever the number of health checks; the answers in between are the last
/// probe's.
final class LedgerWriteProbe: Sendable {
    /// The checkpoint the probe writes (a row of its own, read by nothing).
    static let checkpointName = "healthz.write_probe"
    /// The least time between two probes.
    static let interval: Duration = .seconds(1)

    private struct State {
        var last: (at: ContinuousClock.Instant, writable: Bool)?
        var running: Task<Bool, Never>?
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
