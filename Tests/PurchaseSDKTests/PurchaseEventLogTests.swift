import Foundation
import PurchaseSDK
import Testing

/// The event log while the server cannot be reached: it keeps at most its capacity, drops
/// the oldest, and reports how many it dropped once the server answers.
@Suite struct PurchaseEventLogTests {
    private static func event(_ index: Int) -> PurchaseEvent {
        PurchaseEvent(name: "step_\(index)", occurredAt: Date(timeIntervalSince1970: Double(index)))
    }

    @Test func theOldestEventsAreDroppedAndTheCountIsSentFirst() async throws {
        let transport = CannedTransport()
        let log = PurchaseEventLog(
            server: PurchaseServerClient(baseURL: URL(string: "http://server.test")!, transport: transport),
            tokens: { "token-\($0)" }, batchSize: 200, capacity: 5)
        for index in 0..<8 { await log.record(Self.event(index), playerId: index < 2 ? "ann" : "bob") }
        #expect(await log.queued.map(\.name) == (3..<8).map { "step_\($0)" })
        #expect(await log.dropped == 3)
        #expect(await log.flush() == 0, "offline: nothing sent, nothing lost beyond the drops")
        #expect(await log.queued.count == 5)
        #expect(await log.dropped == 3)

        transport.answer(202, #"{"accepted": 1}"#)
        #expect(await log.flush() == 7, "5 events and a notice for each of the 2 players")
        let batches = try transport.requests(to: "/v1/events").suffix(2).map { request in
            let body = try JSONDecoder().decode([String: [PurchaseEvent]].self, from: try #require(request.body))
            return (token: request.headers["Authorization"] ?? "", events: try #require(body["events"]))
        }
        #expect(batches.map(\.token) == ["Bearer token-ann", "Bearer token-bob"])
        #expect(batches[0].events.map(\.name) == [PurchaseEventLog.droppedEventName])
        #expect(batches[0].events.first?.attributes == ["count": "2"])
        #expect(batches[1].events.map(\.name) == [PurchaseEventLog.droppedEventName] + (3..<8).map { "step_\($0)" })
        #expect(batches[1].events.first?.attributes == ["count": "1"])
        #expect(await log.queued.isEmpty)
        #expect(await log.dropped == 0)
    }

    @Test func aServerThatDoesNotAnswerIsAskedOncePerFlushWhateverThePlayers() async throws {
        let transport = CannedTransport()
        let log = PurchaseEventLog(
            server: PurchaseServerClient(baseURL: URL(string: "http://server.test")!, transport: transport),
            tokens: { "token-\($0)" }, batchSize: 200, capacity: 50)
        for index in 0..<120 { await log.record(Self.event(index), playerId: "player-\(index)") }
        #expect(await log.dropped == 70)
        #expect(await log.flush() == 0)
        #expect(transport.requests(to: "/v1/events").count == 1, "offline: one request, not one per player")
        #expect(await log.queued.count == 50)
        #expect(await log.dropped == 70, "nothing lost beyond the drops")

        transport.answer(202, #"{"accepted": 1}"#)
        #expect(await log.flush() == 120, "50 events and a notice for each of the 70 players")
        #expect(await log.dropped == 0)
    }

    @Test func aNoticeThatFailsIsCountedAgainNotDropped() async throws {
        let transport = CannedTransport()
        let log = PurchaseEventLog(
            server: PurchaseServerClient(baseURL: URL(string: "http://server.test")!, transport: transport),
            tokens: { _ in "token" }, capacity: 2)
        for index in 0..<4 { await log.record(Self.event(index), playerId: "ann") }
        for _ in 0..<3 { await log.flush() }
        #expect(await log.dropped == 2)
        #expect(await log.queued.map(\.name) == ["step_2", "step_3"])
        await log.record(Self.event(4), playerId: "ann")
        #expect(await log.dropped == 3)
    }
}
