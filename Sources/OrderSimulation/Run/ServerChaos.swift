import StoreKeeperDev

/// Restarts purchase server instances (torn down and rebuilt on the same database), one
/// restart at a time per instance, never while work from outside the server (a
/// reconciler pass the simulation runs) holds the instance: that work would use a ledger
/// connection the restart closes.
actor ServerChaos {
    let stack: DevStack
    private let tally: FaultTally
    private var restarting: Set<Int> = []
    /// Instance → how many holders are using it (see ``hold(_:)``).
    private var holds: [Int: Int] = [:]
    private var scheduled: [Task<Void, Never>] = []
    /// Instance → how many times it was restarted.
    private(set) var restarts: [Int: Int] = [:]

    init(stack: DevStack, tally: FaultTally) {
        self.stack = stack
        self.tally = tally
    }

    /// Starts a restart in the background, unless one is under way: the caller goes on
    /// while the server is down. ``settle()`` waits for it.
    func schedule(instance: Int, downtimeMilliseconds: Int) {
        scheduled.append(
            Task { try? await self.restart(instance: instance, downtimeMilliseconds: downtimeMilliseconds) })
    }

    /// Restarts server instance `instance` after `downtime` milliseconds down, unless a
    /// restart of it is under way.
    func restart(instance: Int, downtimeMilliseconds: Int) async throws {
        guard restarting.insert(instance).inserted else { return }
        defer { restarting.remove(instance) }
        while holds[instance, default: 0] > 0 { try? await Task.sleep(for: .milliseconds(10)) }
        await tally.count(.serverRestart)
        restarts[instance, default: 0] += 1
        var failures = 0
        while true {
            do {
                try await stack.restart(instance: instance, downtime: .milliseconds(downtimeMilliseconds))
                return
            } catch {
                // The port may still be held by the server just stopped: try again shortly.
                failures += 1
                guard failures < 20 else { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Waits until instance `instance` is not restarting and keeps it from restarting until
    /// ``release(_:)``.
    func hold(_ instance: Int) async {
        while restarting.contains(instance) { try? await Task.sleep(for: .milliseconds(10)) }
        holds[instance, default: 0] += 1
    }

    /// Ends a ``hold(_:)``.
    func release(_ instance: Int) {
        holds[instance, default: 0] -= 1
    }

    /// Waits for every restart scheduled so far to end.
    func settle() async {
        while !scheduled.isEmpty {
            let tasks = scheduled
            scheduled.removeAll()
            for task in tasks { await task.value }
        }
    }
}
