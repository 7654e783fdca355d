import AppStoreEmulator
import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// App Store Server Notifications end to end: the emulator posts them to the server.
@Suite("Notifications, end to end")
struct NotificationPathTests {
    @Test("the app never reports, ONE_TIME_CHARGE arrives: delivered", arguments: StoreKind.allCases)
    func notificationOnly(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)

        try await fixture.eventually("the notification's delivery") {
            try await fixture.wallet("alice") == ["coins": 100]
        }
        let purchase = try #require(try await fixture.store.purchase(store: .appStore, transactionId: transactionId))
        #expect(purchase.source == .notification)
        #expect(purchase.orderId == order.orderId)
        // The app reports late: already delivered, same purchase.
        let reply = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))
            .decode(PurchaseReply.self)
        #expect(reply.status == "already_delivered")
        #expect(reply.orderId == order.orderId)
    }

    @Test("notification and client report racing grant once", arguments: StoreKind.allCases)
    func racing(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        var transactions: [String] = []
        for _ in 0..<10 {
            let order = try await fixture.order("alice")
            let paid = try await fixture.pay(token: order.appAccountToken)
            transactions.append(try #require(paid.transactionId))
            let reply = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))
                .decode(PurchaseReply.self)
            #expect(["delivered", "already_delivered"].contains(reply.status))
        }
        await fixture.emulator.waitForNotificationDeliveries()
        #expect(try await fixture.wallet("alice") == ["coins": 1_000])
        let entries = try await fixture.store.ledgerEntries(playerId: "alice")
        #expect(entries.count == 10)
        #expect(Set(entries.compactMap(\.transactionId)) == Set(transactions))
    }

    @Test("refund reverses the grant, refund reversal grants again", arguments: StoreKind.allCases)
    func refund(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        try await fixture.eventually("delivery") { try await fixture.wallet("alice") == ["coins": 100] }

        try await fixture.emulator.refund(transactionId: transactionId)
        try await fixture.eventually("the refund") { try await fixture.wallet("alice") == ["coins": 0] }
        #expect(try await fixture.store.purchase(store: .appStore, transactionId: transactionId)?.status == .refunded)

        try await fixture.emulator.reverseRefund(transactionId: transactionId)
        try await fixture.eventually("the refund reversal") { try await fixture.wallet("alice") == ["coins": 100] }
        let kinds = try await fixture.store.ledgerEntries(playerId: "alice").map(\.kind)
        #expect(kinds == [.grant, .refund, .refundReversed])
    }

    @Test("a refund of goods already spent leaves a negative balance, flagged in the ledger")
    func refundAfterSpending() async throws {
        let fixture = try await ServerFixture(.sqlite)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        try await fixture.eventually("delivery") { try await fixture.wallet("alice") == ["coins": 100] }
        _ = try await fixture.store.grantManually(
            playerId: "alice", grants: ["coins": -80], reason: "spent", actor: "game")

        try await fixture.emulator.refund(transactionId: transactionId)
        try await fixture.eventually("the refund") { try await fixture.wallet("alice") == ["coins": -80] }
        let refund = try #require(
            try await fixture.store.events(transactionId: transactionId).last { $0.type == .refunded })
        #expect(refund.detail["negativeBalances"]?.contains("-80") == true)
    }

    @Test("CONSUMPTION_REQUEST is answered from the ledger, for a player who consented")
    func consumptionRequest() async throws {
        let fixture = try await ServerFixture(.sqlite)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        try await fixture.eventually("delivery") { try await fixture.wallet("alice") == ["coins": 100] }
        let consent = try await fixture.send(
            .put, "/v1/players/me/consumption-consent", credential: fixture.token("alice"))
        #expect(consent.status == 200)

        try await fixture.emulator.requestConsumption(transactionId: transactionId)
        try await fixture.eventually("the consumption answer") {
            try await fixture.emulator.consumptionInformation(transactionId) != nil
        }
        let answer = try #require(try await fixture.emulator.consumptionInformation(transactionId))
        #expect(answer.customerConsented == true)
        #expect(answer.deliveryStatus == .delivered)
    }

    @Test("a notification dropped on the way is found by the reconciler", arguments: StoreKind.allCases)
    func reconciler(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        #expect(try await fixture.wallet("alice").isEmpty)

        let reconciler = try #require(await fixture.server.reconciler)
        let report = try await reconciler.run()
        #expect(report.fetched >= 1)
        #expect(report.processed >= 1)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try await fixture.store.purchase(store: .appStore, transactionId: transactionId)?.source == .reconciler)

        let again = try await reconciler.run()
        #expect(again.processed == 0)
        #expect(again.duplicates >= 1)
        #expect(try await fixture.store.ledgerEntries(playerId: "alice").count == 1)
    }

    @Test("forged, malformed and duplicate notifications")
    func badNotifications() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let malformed = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": "x.y.z"])
        #expect(malformed.status == 422)
        #expect(malformed.code == "malformed_encoding" || malformed.code == "malformed_container")
        let empty = try await fixture.send(.post, "/v1/notifications/apple", json: [String: String]())
        #expect(empty.status == 400)

        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        let signed = try #require(
            await fixture.emulator.notifications().last { $0.transactionId == transactionId }?.signedPayload)
        var parts = signed.split(separator: ".").map(String.init)
        parts[2] = String(parts[2].reversed())
        let forged = try await fixture.send(
            .post, "/v1/notifications/apple", json: ["signedPayload": parts.joined(separator: ".")])
        #expect(forged.status == 422)
        #expect(try await fixture.wallet("alice").isEmpty)

        let first = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": signed])
        let second = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": signed])
        #expect(first.status == 200)
        #expect(second.status == 200)
        #expect(String(decoding: second.body, as: UTF8.self).contains("duplicate"))
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("a purchase without an order binding waits for the player's report, then is delivered")
    func unboundNotification() async throws {
        let fixture = try await ServerFixture(.sqlite)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.pay(token: nil)
        let transactionId = try #require(paid.transactionId)
        try await fixture.eventually("the notification") {
            try await fixture.store.events(transactionId: transactionId).contains {
                $0.type.rawValue == "awaiting_report"
            }
        }
        #expect(try await fixture.store.purchase(store: .appStore, transactionId: transactionId) == nil)
        let reply = try await fixture.report("bob", signedTransaction: try #require(paid.signedTransaction))
            .decode(PurchaseReply.self)
        #expect(reply.status == "delivered")
        #expect(reply.flags == ["unbound"])
    }

    @Test("a refund notified before delivery stops a later report of the pre-refund transaction")
    func refundBeforeDelivery() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        try await fixture.emulator.refund(transactionId: transactionId)
        let refund = try await fixture.signedNotification(.refund, about: transactionId)
        let posted = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": refund])
        #expect(posted.status == 200)

        let answer = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))
        #expect(answer.status == 422)
        #expect(answer.code == "transaction_revoked")
        #expect(try await fixture.wallet("alice").isEmpty)
    }

    @Test(
        "a refund notified while its delivery is written still reverses it (found by storekeeper simulate, seed 8)",
        arguments: StoreKind.allCases)
    func refundRacingDelivery(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        var races: [(signedTransaction: String, refund: String)] = []
        for _ in 0..<20 {
            let order = try await fixture.order("alice")
            let paid = try await fixture.pay(token: order.appAccountToken)
            let transactionId = try #require(paid.transactionId)
            try await fixture.emulator.refund(transactionId: transactionId)
            races.append(
                (
                    try #require(paid.signedTransaction),
                    try await fixture.signedNotification(.refund, about: transactionId)
                ))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for race in races {
                group.addTask { _ = try await fixture.report("alice", signedTransaction: race.signedTransaction) }
                group.addTask {
                    _ = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": race.refund])
                }
            }
            try await group.waitForAll()
        }
        #expect(try await fixture.wallet("alice").values.allSatisfy { $0 == 0 }, "every purchase was refunded")
        for purchase in try await fixture.store.purchases(playerId: "alice") {
            #expect(purchase.status == .refunded, "\(purchase.transactionId) delivered after its refund")
        }
    }

    @Test("a refund and its reversal processed at once leave the goods delivered", arguments: StoreKind.allCases)
    func refundRacingItsReversal(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        var pairs: [(refund: String, reversal: String)] = []
        for _ in 0..<20 {
            let order = try await fixture.order("alice")
            let paid = try await fixture.pay(token: order.appAccountToken)
            let transactionId = try #require(paid.transactionId)
            #expect(
                try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction)).status
                    == 200)
            try await fixture.emulator.refund(transactionId: transactionId)
            try await Task.sleep(for: .milliseconds(2))
            try await fixture.emulator.reverseRefund(transactionId: transactionId)
            pairs.append(
                (
                    try await fixture.signedNotification(.refund, about: transactionId),
                    try await fixture.signedNotification(.refundReversed, about: transactionId)
                ))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for pair in pairs {
                for payload in [pair.refund, pair.reversal] {
                    group.addTask {
                        _ = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": payload])
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await fixture.wallet("alice") == ["coins": 2_000], "Apple's last word is the reversal")
        for purchase in try await fixture.store.purchases(playerId: "alice") {
            #expect(purchase.status == .delivered, "\(purchase.transactionId) left refunded")
        }
    }

    @Test(
        "a refund reversal that overtakes its refund wins: Apple's signed dates order them, not arrival",
        arguments: StoreKind.allCases)
    func reversalBeforeItsRefund(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        #expect(
            try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction)).status == 200)
        try await fixture.emulator.refund(transactionId: transactionId)
        try await Task.sleep(for: .milliseconds(5))
        try await fixture.emulator.reverseRefund(transactionId: transactionId)
        let notices = await fixture.emulator.notifications().filter { $0.transactionId == transactionId }
        let refund = try #require(notices.last { $0.notificationType == .refund })
        let reversal = try #require(notices.last { $0.notificationType == .refundReversed })
        try #require(refund.signedDate < reversal.signedDate)

        for notice in [reversal, refund, reversal, refund] {
            let posted = try await fixture.send(
                .post, "/v1/notifications/apple", json: ["signedPayload": notice.signedPayload])
            #expect(posted.status == 200)
        }
        #expect(try await fixture.wallet("alice") == ["coins": 100], "the refund came first, then its reversal")
        #expect(try await fixture.store.purchase(store: .appStore, transactionId: transactionId)?.status == .delivered)
        #expect(try await fixture.store.ledgerEntries(playerId: "alice").map(\.kind) == [.grant])

        // A refund signed after the reversal still refunds.
        try await fixture.emulator.refund(transactionId: transactionId)
        let again = try await fixture.signedNotification(.refund, about: transactionId)
        #expect(try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": again]).status == 200)
        #expect(try await fixture.wallet("alice") == ["coins": 0])
    }
}
