/// The purchase-flow event log: events are queued per player and sent to the server in
/// batches with that player's token; a batch that fails stays queued for the next flush.
public actor PurchaseEventLog {
    /// The most events one request carries (the server accepts up to 200).
    public let batchSize: Int
    private let server: PurchaseServerClient
    private let tokens: PlayerTokenProvider
    private var queue: [(playerId: String, event: PurchaseEvent)] = []
    private var lastFlush: Task<Int, Never>?

    /// Creates a log that sends to `server`.
    public init(server: PurchaseServerClient, tokens: @escaping PlayerTokenProvider, batchSize: Int = 50) {
        self.server = server
        self.tokens = tokens
        self.batchSize = max(1, min(batchSize, 200))
    }

    /// Queues an event of `playerId`'s purchase flow.
    public func record(_ event: PurchaseEvent, playerId: String) {
        queue.append((playerId, event))
    }

    /// The events not sent yet.
    public var queued: [PurchaseEvent] { queue.map(\.event) }

    /// Sends the queued events, per player, ``batchSize`` at a time, after any flush
    /// already under way. Events that could not be sent stay queued; returns how many were sent.
    @discardableResult
    public func flush() async -> Int {
        let previous = lastFlush
        let flush = Task {
            _ = await previous?.value
            return await self.sendQueued()
        }
        lastFlush = flush
        return await flush.value
    }

    private func sendQueued() async -> Int {
        let taken = queue
        queue.removeAll()
        var sent = 0
        var unsent: [(playerId: String, event: PurchaseEvent)] = []
        for playerId in Set(taken.map(\.playerId)).sorted() {
            let events = taken.filter { $0.playerId == playerId }.map(\.event)
            for start in stride(from: 0, to: events.count, by: batchSize) {
                let batch = Array(events[start..<min(start + batchSize, events.count)])
                do {
                    try await server.sendEvents(batch, token: try await tokens(playerId))
                    sent += batch.count
                } catch {
                    unsent += batch.map { (playerId, $0) }
                }
            }
        }
        queue = unsent + queue
        return sent
    }
}
