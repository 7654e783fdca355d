/// Refreshes the entitlements after deliveries, one refresh at a time: a request made while
/// one runs is served by one more refresh after it (requests coalesce), so a burst of
/// deliveries costs two reads of the server, and answers are taken in the order they were
/// read.
final class EntitlementRefresher: Sendable {
    private let requests: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>

    /// A refresher running `refresh` for each (coalesced) request until ``stop()``.
    init(_ refresh: @escaping @Sendable () async -> Void) {
        let (stream, requests) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.requests = requests
        task = Task {
            for await _ in stream { await refresh() }
        }
    }

    /// Asks for a refresh.
    func request() {
        requests.yield()
    }

    /// Takes no more requests and cancels the refresh running, if any, without waiting for
    /// it (a read of an unresponsive server may ignore cancellation until its deadline).
    func stop() {
        requests.finish()
        task.cancel()
    }
}
