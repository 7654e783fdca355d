import Foundation

/// The purchase-flow event log: events are queued per player and sent to the server in
/// batches with that player's token; a batch that fails stays queued for the next flush.
///
/// The queue holds at most ``capacity`` events: while the server cannot be reached, the
/// oldest are dropped to make room, and the player's next batch starts with an
/// `events_dropped` event that says how many (attribute `count`).
public actor PurchaseEventLog {
    /// The most events one request carries (the server accepts up to 200).
    public let batchSize: Int
    /// The most events kept waiting for the server.
    public let capacity: Int
    private let server: PurchaseServerClient
    private let tokens: PlayerTokenProvider
    private var queue: [(playerId: String, event: PurchaseEvent)] = []
    /// Events dropped for want of room and not reported yet, by player.
    private var droppedByPlayer: [String: Int] = [:]
    private var lastFlush: Task<Int, Never>?

    /// Creates a log that sends to `server`, keeping at most `capacity` events (at least
    /// one) while it cannot.
    public init(
        server: PurchaseServerClient, tokens: @escaping PlayerTokenProvider, batchSize: Int = 50,
        capacity: Int = 1_000
    ) {
        self.server = server
        self.tokens = tokens
        self.batchSize = max(1, min(batchSize, 200))
        self.capacity = max(1, capacity)
    }

    /// Queues an event of `playerId`'s purchase flow, dropping the oldest event queued
    /// when the log is full.
    public func record(_ event: PurchaseEvent, playerId: String) {
        if queue.count >= capacity {
            let oldest = queue.removeFirst()
            droppedByPlayer[oldest.playerId, default: 0] += 1
        }
        queue.append((playerId, event))
    }

    /// The name of the event that reports dropped events.
    public static let droppedEventName = "events_dropped"

    /// The events dropped for want of room and not reported to the server yet.
    public var dropped: Int { droppedByPlayer.values.reduce(0, +) }

    /// The events not sent yet.
    public var queued: [PurchaseEvent] { queue.map(\.event) }

    /// Sends the queued events, per player, ``batchSize`` at a time, after any flush
    /// already under way. Events that could not be sent stay queued; returns how many were
    /// sent. When the server does not answer at all, the flush stops there: the other
    /// players' batches would meet the same silence, and a log holding many players' events
    /// (or their drop counts) would otherwise wait out one failed request per player.
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
        var unreachable = false
        for playerId in Set(taken.map(\.playerId)).union(droppedByPlayer.keys).sorted() {
            var events = taken.filter { $0.playerId == playerId }.map(\.event)
            let dropped = droppedByPlayer.removeValue(forKey: playerId) ?? 0
            if dropped > 0 {
                events.insert(
                    PurchaseEvent(name: Self.droppedEventName, occurredAt: Date(), attributes: ["count": "\(dropped)"]),
                    at: 0)
            }
            for start in stride(from: 0, to: events.count, by: batchSize) {
                let batch = Array(events[start..<min(start + batchSize, events.count)])
                guard !unreachable else {
                    unsent += batch.map { (playerId, $0) }
                    continue
                }
                do {
                    try await server.sendEvents(batch, token: try await tokens(playerId))
                    sent += batch.count
                } catch {
                    if case .retryable(reason: "network_error", _) = error as? ServerCallError { unreachable = true }
                    unsent += batch.map { (playerId, $0) }
                }
            }
        }
        // What failed goes back in front; a notice of dropped events that failed goes back
        // to the count, so that it is never itself dropped.
        var requeued: [(playerId: String, event: PurchaseEvent)] = []
        for (playerId, event) in unsent {
            if event.name == Self.droppedEventName, let count = event.attributes?["count"].flatMap(Int.init) {
                droppedByPlayer[playerId, default: 0] += count
            } else {
                requeued.append((playerId, event))
            }
        }
        queue = requeued + queue
        while queue.count > capacity {
            let oldest = queue.removeFirst()
            droppedByPlayer[oldest.playerId, default: 0] += 1
        }
        return sent
    }
}
