/// Lets one task at a time through, in arrival order: the reconciler passes of one server
/// run one after another (across instances, the ledger's lease does the same).
actor PassGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every earlier caller has left.
    func run<Value: Sendable>(_ body: @Sendable () async throws -> Value) async throws -> Value {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        defer {
            if waiting.isEmpty {
                busy = false
            } else {
                waiting.removeFirst().resume()
            }
        }
        return try await body()
    }
}
