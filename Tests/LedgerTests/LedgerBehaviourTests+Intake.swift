import Foundation
import Ledger
import LedgerTestSupport
import Testing

extension LedgerBehaviourTests {
    @Test("notifications are deduplicated on their UUID", arguments: StoreKind.allCases)
    func notificationDedupe(kind: StoreKind) async throws {
        try await withStores(kind, count: 2) { stores, _ in
            let store = stores[0]
            let uuid = UUID().uuidString.lowercased()
            let transactionId = Fixture.transactionId()
            let received = Date()
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<10 {
                    let store = stores[index % 2]
                    group.addTask {
                        try await store.recordNotification(
                            store: .appStore,
                            notificationUUID: uuid,
                            type: "ONE_TIME_CHARGE",
                            subtype: nil,
                            transactionId: transactionId,
                            signedDate: nil,
                            refund: nil,
                            receivedAt: received
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 1)

            let record = try #require(try await store.notification(uuid: uuid))
            #expect(record.type == "ONE_TIME_CHARGE")
            #expect(record.transactionId == transactionId)
            #expect(record.processedAt == nil)

            // The notification came before anyone knew the player; once the transaction is
            // delivered, it shows in the player's timeline.
            _ = try await store.deliver(Fixture.delivery(transactionId: transactionId, source: .notification))
            try await store.markNotificationProcessed(uuid)
            let processed = try #require(try await store.notification(uuid: uuid)?.processedAt)
            try await store.markNotificationProcessed(uuid)
            #expect(try await store.notification(uuid: uuid)?.processedAt == processed)

            #expect(try await store.timeline(playerId: "player-1").map(\.type) == [.notificationReceived, .delivered])
            #expect(try await store.timeline(playerId: "player-2").isEmpty)
            let event = try #require(try await store.events(transactionId: transactionId).first)
            #expect(event.detail["notificationUUID"] == uuid)
            #expect(event.detail["notificationType"] == "ONE_TIME_CHARGE")

            // A notification for a known transaction is attributed to its player at once.
            let refundUUID = UUID().uuidString
            #expect(
                try await store.recordNotification(
                    store: .appStore,
                    notificationUUID: refundUUID,
                    type: "REFUND",
                    subtype: nil,
                    transactionId: transactionId,
                    signedDate: Date(timeIntervalSince1970: 1_790_000_000.123),
                    refund: RefundNoticeFixture.notice("REFUND"),
                    receivedAt: Date()
                )
            )
            let recorded = try #require(
                try await store.events(transactionId: transactionId).last { $0.type == .notificationReceived })
            #expect(recorded.detail["signedDate"] == "1790000000123", "Apple's signed date orders refunds")
            #expect(try await store.timeline(playerId: "player-1").last?.playerId == "player-1")
            #expect(try await store.notification(uuid: "unknown") == nil)
        }
    }

    @Test("outbox: claim, fail with backoff, claim again, deliver", arguments: StoreKind.allCases)
    func outbox(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let delivery = Fixture.delivery()
            _ = try await store.deliver(delivery)
            let now = Date().addingTimeInterval(1)

            let claimed = try await store.dueOutboxMessages(now: now, limit: 10)
            let message = try #require(claimed.first)
            #expect(claimed.count == 1)
            #expect(message.idempotencyKey == delivery.transactionId)
            #expect(message.transactionId == delivery.transactionId)
            #expect(message.nextAttemptAt > now)
            // Claimed: no other worker gets it until the claim ends…
            #expect(try await store.dueOutboxMessages(now: now, limit: 10).isEmpty)
            // …when a worker that died has lost it.
            #expect(try await store.dueOutboxMessages(now: now.addingTimeInterval(61), limit: 10).count == 1)

            try await store.markOutboxFailed(
                id: message.id, nextAttemptAt: now.addingTimeInterval(300), error: "HTTP 503")
            #expect(try await store.dueOutboxMessages(now: now.addingTimeInterval(200), limit: 10).isEmpty)
            let retried = try #require(
                try await store.dueOutboxMessages(now: now.addingTimeInterval(301), limit: 10).first
            )
            #expect(retried.attempts == 1)
            #expect(retried.lastError == "HTTP 503")

            try await store.markOutboxFailed(
                id: message.id, nextAttemptAt: now.addingTimeInterval(400), error: "timeout")
            #expect(try await store.outboxMessage(idempotencyKey: delivery.transactionId)?.attempts == 2)

            try await store.markOutboxDelivered(id: message.id)
            let done = try #require(try await store.outboxMessage(idempotencyKey: delivery.transactionId))
            #expect(done.deliveredAt != nil)
            #expect(done.lastError == nil)
            #expect(try await store.dueOutboxMessages(now: now.addingTimeInterval(10_000), limit: 10).isEmpty)
            // A late failure report for a delivered message changes nothing.
            try await store.markOutboxFailed(id: message.id, nextAttemptAt: now, error: "late")
            #expect(try await store.outboxMessage(idempotencyKey: delivery.transactionId)?.attempts == 2)
        }
    }

    @Test("outbox: concurrent workers never claim one message twice", arguments: StoreKind.allCases)
    func outboxClaimsAreDisjoint(kind: StoreKind) async throws {
        try await withStores(kind, count: 3) { stores, _ in
            for _ in 0..<12 {
                _ = try await stores[0].deliver(Fixture.delivery())
            }
            let now = Date().addingTimeInterval(1)
            let batches = try await withThrowingTaskGroup(of: [OutboxMessage].self) { group in
                for index in 0..<6 {
                    let store = stores[index % stores.count]
                    group.addTask { try await store.dueOutboxMessages(now: now, limit: 3) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let ids = batches.flatMap { $0.map(\.id) }
            #expect(Set(ids).count == ids.count, "a message was claimed twice")
            let rest = try await stores[1].dueOutboxMessages(now: now, limit: 100)
            #expect(Set(ids + rest.map(\.id)).count == 12)
            #expect(ids.count + rest.count == 12)
        }
    }

    @Test("client events go to the player's history", arguments: StoreKind.allCases)
    func clientEvents(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let order = try await store.createOrder(Fixture.order())
            try await store.appendClientEvents(
                playerId: "player-1",
                events: [
                    ClientEvent(
                        name: "purchase_started",
                        orderId: order.orderId,
                        occurredAt: Date(timeIntervalSince1970: 1_700_000_000),
                        attributes: ["product": "coins100"]
                    ),
                    ClientEvent(
                        name: "report_failed",
                        orderId: order.orderId,
                        transactionId: "2000000001",
                        occurredAt: Date(timeIntervalSince1970: 1_700_000_001),
                        attributes: ["error": "offline", "name": "ignored"]
                    ),
                ]
            )
            try await store.appendClientEvents(playerId: "player-1", events: [])
            let timeline = try await store.timeline(playerId: "player-1")
            #expect(timeline.map(\.type) == [.orderCreated, .clientEvent, .clientEvent])
            #expect(
                timeline[1].detail == [
                    "name": "purchase_started", "product": "coins100", "occurredAt": "1700000000000",
                ])
            #expect(timeline[2].detail["name"] == "report_failed")
            #expect(timeline[2].detail["error"] == "offline")
            #expect(timeline[2].transactionId == "2000000001")
            #expect(try await store.events(orderId: order.orderId).count == 3)
            // A device's event is in a transaction's history only once the transaction is
            // this player's purchase: 2000000001 was delivered to nobody.
            #expect(try await store.events(transactionId: "2000000001").isEmpty)
        }
    }

    @Test("checkpoints", arguments: StoreKind.allCases)
    func checkpoints(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            #expect(try await store.checkpoint("reconciler.notificationHistory") == nil)
            try await store.setCheckpoint("reconciler.notificationHistory", value: "1700000000000")
            #expect(try await store.checkpoint("reconciler.notificationHistory") == "1700000000000")
            try await store.setCheckpoint("reconciler.notificationHistory", value: "1700000100000")
            #expect(try await store.checkpoint("reconciler.notificationHistory") == "1700000100000")
            #expect(try await store.checkpoint("other") == nil)
        }
    }
}
