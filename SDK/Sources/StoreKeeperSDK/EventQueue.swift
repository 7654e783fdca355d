import Foundation

/// The events a client holds until the game polls them: call answers and unsolicited
/// updates, as JSON text, oldest first, at most ``capacity`` of them.
///
/// Every call reserves its answer's place when it starts (``reserve()``), so an answer is
/// never dropped: a call that finds no room is refused instead. An unsolicited event that
/// finds no room is dropped and counted; the count is told (`{"event": "eventsDropped",
/// "count": N}`) as soon as there is room again.
///
/// `@unchecked Sendable`: every stored property is read and written only while `condition`
/// is locked (each method locks it for its whole body), so threads never race on them.
final class EventQueue: @unchecked Sendable {
    /// The most events waiting or reserved at once.
    let capacity: Int
    private let condition = NSCondition()
    private var events: [String] = []
    private var head = 0
    private var reserved = 0
    private var dropped = 0
    private var lastCallId: Int64 = 0
    private var closed = false

    /// Creates an empty queue holding at most `capacity` events (at least 2).
    init(capacity: Int) {
        self.capacity = max(2, capacity)
    }

    /// Reserves the place of one call's answer and numbers the call (1, 2, …); `nil` when
    /// the queue is full or closed.
    func reserve() -> Int64? {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, waiting + reserved < capacity else { return nil }
        reserved += 1
        lastCallId += 1
        return lastCallId
    }

    /// Adds the answer of a call that ``reserve()``d its place.
    func answer(_ json: String) {
        condition.lock()
        defer { condition.unlock() }
        reserved -= 1
        append(json)
    }

    /// Adds an unsolicited event, or counts it as dropped when the queue is full.
    func post(_ json: String) {
        condition.lock()
        defer { condition.unlock() }
        guard waiting + reserved < capacity else {
            dropped += 1
            return
        }
        append(json)
    }

    /// The oldest event, or `nil` when none waits. With a `timeout`, waits up to that long
    /// for one; a closed queue answers `nil` at once.
    func take(timeout: TimeInterval = 0) -> String? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while waiting == 0, !closed, Date() < deadline {
            _ = condition.wait(until: deadline)
        }
        guard !closed, waiting > 0 else { return nil }
        let event = events[head]
        head += 1
        if head == events.count {
            events.removeAll(keepingCapacity: true)
            head = 0
        }
        if dropped > 0, waiting + reserved < capacity {
            append(#"{"event":"eventsDropped","count":\#(dropped)}"#)
            dropped = 0
        }
        return event
    }

    /// Empties the queue for good and wakes every waiter.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        events.removeAll()
        head = 0
        condition.broadcast()
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    private var waiting: Int { events.count - head }

    private func append(_ json: String) {
        guard !closed else { return }
        events.append(json)
        condition.signal()
    }
}
