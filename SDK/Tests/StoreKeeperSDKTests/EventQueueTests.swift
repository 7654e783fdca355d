import Foundation
import Testing

@testable import StoreKeeperSDK

/// The bounded event queue: unsolicited events past its capacity are dropped and counted,
/// and the count is told (`eventsDropped`) as soon as a poll makes room; call answers, whose
/// places are reserved, are never dropped.
@Suite struct EventQueueTests {
    private static func notice(_ count: Int) -> String { #"{"event":"eventsDropped","count":\#(count)}"# }

    @Test("events past the capacity are dropped, counted and told once a poll makes room")
    func overflowIsCountedAndTold() {
        let queue = EventQueue(capacity: 3)
        for index in 1...7 { queue.post("e\(index)") }
        #expect(queue.take() == "e1")
        #expect(queue.take() == "e2")
        #expect(queue.take() == "e3")
        #expect(queue.take() == Self.notice(4))
        #expect(queue.take() == nil)

        // The count starts again after the notice.
        for index in 8...12 { queue.post("e\(index)") }
        #expect([queue.take(), queue.take(), queue.take(), queue.take()] == ["e8", "e9", "e10", Self.notice(2)])
        #expect(queue.take() == nil)
    }

    @Test("the notice waits for room: drops while it cannot be queued add to its count")
    func noticeWaitsForRoom() {
        let queue = EventQueue(capacity: 2)
        queue.post("a")
        queue.post("b")
        queue.post("c")
        #expect(queue.take() == "a")  // room again: the notice (1 drop) is queued after b
        queue.post("d")  // full (b and the notice): dropped, counted for the next notice
        #expect(queue.take() == "b")
        #expect(queue.take() == Self.notice(1))
        #expect(queue.take() == Self.notice(1))
        #expect(queue.take() == nil)
    }

    @Test("a call's reserved answer is never dropped; a call finding no room is refused")
    func answersAreNeverDropped() {
        let queue = EventQueue(capacity: 2)
        #expect(queue.reserve() == 1)
        queue.post("update")
        queue.post("lost")  // one waiting, one reserved: no room
        #expect(queue.reserve() == nil)
        queue.answer("answer 1")
        #expect(queue.take() == "update")
        #expect(queue.take() == "answer 1")
        #expect(queue.take() == Self.notice(1))
        #expect(queue.reserve() == 2)
    }

    @Test("a closed queue drops everything and wakes its waiters")
    func closing() {
        let queue = EventQueue(capacity: 4)
        queue.post("a")
        queue.close()
        queue.post("b")
        #expect(queue.isClosed)
        #expect(queue.take(timeout: 5) == nil)
        #expect(queue.reserve() == nil)
    }
}
