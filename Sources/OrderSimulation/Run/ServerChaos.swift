import StoreKeeperDev

/// Restarts the purchase server (torn down and rebuilt on the same database), one restart
/// at a time.
actor ServerChaos {
    let stack: DevStack
    private let tally: FaultTally
    private var restarting = false

    init(stack: DevStack, tally: FaultTally) {
        self.stack = stack
        self.tally = tally
    }

    /// Restarts the server after `downtime` milliseconds down, unless a restart is under way.
    func restart(downtimeMilliseconds: Int) async throws {
        guard !restarting else { return }
        restarting = true
        defer { restarting = false }
        await tally.count(.serverRestart)
        var failures = 0
        while true {
            do {
                try await stack.restart(downtime: .milliseconds(downtimeMilliseconds))
                return
            } catch {
                // The port may still be held by the server just stopped: try again shortly.
                failures += 1
                guard failures < 20 else { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Waits for a restart under way to end.
    func settle() async {
        while restarting {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
