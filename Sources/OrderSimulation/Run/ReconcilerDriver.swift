import StoreKeeperDev

/// Runs the server's reconciler for the simulation, instead of the server's own schedule,
/// and keeps every pass: on the wall clock in a concurrent run, at fixed purchase counts in
/// a serial one, and at the end until one pass completes.
actor ReconcilerDriver {
    private let stack: DevStack
    private let chaos: ServerChaos
    private let started: ContinuousClock.Instant
    private(set) var passes: [ReconcilerPass] = []

    init(stack: DevStack, chaos: ServerChaos, started: ContinuousClock.Instant) {
        self.stack = stack
        self.chaos = chaos
        self.started = started
    }

    /// Whether the last pass completed (true before any pass).
    var lastPassCompleted: Bool { passes.last.map { $0.error == nil } ?? true }

    /// The last pass's error, if it failed.
    var lastError: String? { passes.last?.error }

    /// Runs one pass on instance 0, which no restart takes down meanwhile (a pass that
    /// outlived its server would wait on a closed ledger), and records it; returns whether
    /// it completed. A pass reads Apple's history for the server's budget, as the server's
    /// own passes do, or all of it when `readingAll`.
    @discardableResult
    func pass(_ reason: String, readingAll: Bool = false) async -> Bool {
        await chaos.hold(0)
        let at = (ContinuousClock.now - started) / .seconds(1)
        let completed = await passHeld(reason, at: at, readingAll: readingAll)
        await chaos.release(0)
        return completed
    }

    private func passHeld(_ reason: String, at: Double, readingAll: Bool) async -> Bool {
        do {
            guard var reconciler = try await stack.server.reconciler else { return true }
            if readingAll { reconciler.historyBudget = nil }
            let report = try await reconciler.run()
            passes.append(ReconcilerPass(at: at, reason: reason, report: report, error: nil))
            return true
        } catch {
            passes.append(ReconcilerPass(at: at, reason: reason, report: nil, error: "\(error)"))
            return false
        }
    }

    /// Runs passes that read all of Apple's history until one completes, up to `attempts`
    /// of them, 200 ms apart.
    func settle(_ reason: String, attempts: Int = 5) async {
        for attempt in 1...attempts {
            if await pass(reason, readingAll: true) { return }
            if attempt < attempts { try? await Task.sleep(for: .milliseconds(200)) }
        }
    }

    /// Runs a pass every `interval` until the task is cancelled.
    nonisolated func periodically(every interval: Duration) -> Task<Void, Never> {
        Task {
            while true {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                await pass("periodic")
            }
        }
    }
}
