import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import AppStoreSigning
import Foundation
import Ledger
import LedgerTestSupport
import Logging
import Testing

@testable import PurchaseServer

/// The server finishes at Apple what it delivered without the app (Finish Transaction), so
/// the player's device is not left holding it unfinished.
@Suite("Finishing at Apple")
struct FinishAtAppleTests {
    @Test(
        "ONE_TIME_CHARGE alone: delivered, finished at Apple, the device holds nothing", arguments: StoreKind.allCases)
    func notificationOnly(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        #expect(try await unfinished(fixture) == [transactionId])

        try await fixture.eventually("the finish at Apple") {
            try await fixture.store.events(transactionId: transactionId).contains { $0.type == .finishedAtApple }
        }
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try await unfinished(fixture).isEmpty)
        let finished = try #require(
            try await fixture.store.events(transactionId: transactionId).first { $0.type == .finishedAtApple })
        #expect(finished.playerId == "alice" && finished.orderId == order.orderId)
        #expect(finished.detail["source"] == "notification" && finished.detail["productType"] == "Consumable")
        #expect(try await fixture.store.timeline(playerId: "alice").contains { $0.type == .finishedAtApple })
        // Apple may send the notification twice at once (the emulator retries an attempt it
        // timed out); each finish is counted and recorded, and a second one is harmless.
        let finishes = try await fixture.store.events(transactionId: transactionId).count {
            $0.type == .finishedAtApple
        }
        let metrics = String(decoding: try await fixture.send(.get, "/metrics").body, as: UTF8.self)
        #expect(
            metrics.contains(
                #"storekeeper_apple_follow_ups_total{operation="finish_transaction",result="succeeded"} \#(finishes)"#))

        // The app reports late: already delivered; finishing again on the device is harmless.
        let reply = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))
            .decode(PurchaseReply.self)
        #expect(reply.status == "already_delivered")
        try await fixture.emulator.finishTransaction(deviceId: "phone", transactionId: transactionId)
        #expect(
            try await fixture.store.events(transactionId: transactionId).count { $0.type == .finishedAtApple }
                == finishes)
    }

    @Test("a StoreKit 1 receipt reported after the server finished the consumable: already delivered, not refused")
    func receiptAfterTheFinish() async throws {
        let fixture = try await ServerFixture(.sqlite)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        try await fixture.eventually("the finish at Apple") {
            try await fixture.store.events(transactionId: transactionId).contains { $0.type == .finishedAtApple }
        }
        // A finished consumable leaves the receipt.
        let receipt = try await fixture.emulator.receipt(deviceId: "phone")
        let body = ["receipt": receipt, "transactionId": transactionId, "orderId": order.orderId]

        let reply = try await fixture.send(.post, "/v1/purchases", credential: fixture.token("alice"), json: body)
        #expect(reply.status == 200)
        let answer = try reply.decode(PurchaseReply.self)
        #expect(answer.status == "already_delivered" && answer.transactionId == transactionId)
        #expect(answer.balances == ["coins": 100])
        // Anyone else reporting it is refused as before: the receipt does not hold it.
        let other = try await fixture.send(
            .post, "/v1/purchases", credential: fixture.token("mallory"),
            json: ["receipt": receipt, "transactionId": transactionId])
        #expect(other.status == 422 && other.code == "transaction_not_in_receipt")
        let types = try await fixture.store.events(transactionId: transactionId).map(\.type)
        #expect(types.filter { $0 == .purchaseRejected }.count == 1)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("a StoreKit 1 receipt reported after the app finished its delivered consumable: already delivered")
    func receiptAfterTheAppsFinish() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false) { $0.finishTransactionsAtApple = false }
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        let first = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))
        #expect(try first.decode(PurchaseReply.self).status == "delivered")
        // The app finishes it; the server never did, so no finished_at_apple record exists.
        try await fixture.emulator.finishTransaction(deviceId: "phone", transactionId: transactionId)
        let receipt = try await fixture.emulator.receipt(deviceId: "phone")
        let body = ["receipt": receipt, "transactionId": transactionId, "orderId": order.orderId]

        let reply = try await fixture.send(.post, "/v1/purchases", credential: fixture.token("alice"), json: body)
        #expect(reply.status == 200)
        #expect(try reply.decode(PurchaseReply.self).status == "already_delivered")
        let other = try await fixture.send(
            .post, "/v1/purchases", credential: fixture.token("mallory"),
            json: ["receipt": receipt, "transactionId": transactionId])
        #expect(other.status == 422 && other.code == "transaction_not_in_receipt")
        #expect(try await !fixture.store.events(transactionId: transactionId).contains { $0.type == .finishedAtApple })
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("with finishing turned off the transaction stays unfinished on the device")
    func turnedOff() async throws {
        let fixture = try await ServerFixture(.sqlite) { $0.finishTransactionsAtApple = false }
        defer { Task { await fixture.shutdown() } }
        #expect(try await !fixture.server.configuration.finishesTransactionsAtApple)
        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        try await fixture.eventually("delivery") { try await fixture.wallet("alice") == ["coins": 100] }
        await fixture.emulator.waitForNotificationDeliveries()

        #expect(try await unfinished(fixture) == [transactionId])
        let types = try await fixture.store.events(transactionId: transactionId).map(\.type)
        #expect(!types.contains(.finishedAtApple) && !types.contains(.finishAtAppleFailed))
    }

    @Test("what the app reported first is left to the app to finish")
    func reportedByTheApp() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        let reply = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))
        #expect(try reply.decode(PurchaseReply.self).status == "delivered")

        let notification = try await fixture.signedNotification(.oneTimeCharge, about: transactionId)
        let answer = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": notification])
        #expect(answer.status == 200)
        #expect(try await unfinished(fixture) == [transactionId])
        #expect(try await !fixture.store.events(transactionId: transactionId).contains { $0.type == .finishedAtApple })
    }

    @Test("an auto-renewable subscription is left to the app")
    func subscription() async throws {
        let fixture = try await ServerFixture(.sqlite)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "vip.monthly")
        let paid = try await fixture.pay(product: "vip.monthly", token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        try await fixture.eventually("delivery") {
            try await fixture.store.purchase(store: .appStore, transactionId: transactionId) != nil
        }
        await fixture.emulator.waitForNotificationDeliveries()
        #expect(
            try await fixture.store.purchase(store: .appStore, transactionId: transactionId)?.source == .notification)
        #expect(try await unfinished(fixture) == [transactionId])
        #expect(try await !fixture.store.events(transactionId: transactionId).contains { $0.type == .finishedAtApple })
    }

    @Test(
        "a finish Apple fails is recorded, answered 503, and done when Apple sends the notification again",
        arguments: StoreKind.allCases)
    func retriedOnApplesResend(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        await fixture.emulator.setFaults(EmulatorFaults(endpoints: ["finishTransaction": EndpointFaults(errorRate: 1)]))
        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        let notification = try await fixture.signedNotification(.oneTimeCharge, about: transactionId)

        let first = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": notification])
        #expect(first.status == 503 && first.code == "apple_unavailable")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try await unfinished(fixture) == [transactionId])
        let failed = try #require(
            try await fixture.store.events(transactionId: transactionId).first { $0.type == .finishAtAppleFailed })
        #expect(failed.detail["retryable"] == "true" && failed.detail["httpStatus"] == "500")
        #expect(failed.detail["errorCode"] == "5000001" && failed.playerId == "alice")
        let uuid = try #require(
            try await fixture.store.events(transactionId: transactionId).first {
                $0.type == .notificationReceived
            }?.detail["notificationUUID"])
        #expect(try await fixture.store.notification(uuid: uuid)?.processedAt == nil)

        await fixture.emulator.setFaults(EmulatorFaults())
        let again = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": notification])
        #expect(again.status == 200)
        #expect(try await unfinished(fixture).isEmpty)
        #expect(try await fixture.store.notification(uuid: uuid)?.processedAt != nil)
        let types = try await fixture.store.events(transactionId: transactionId).map(\.type)
        #expect(types.filter { $0 == .finishedAtApple }.count == 1)
        #expect(try await fixture.store.ledgerEntries(playerId: "alice").count == 1)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("the reconciler's pass retries a failed finish until Apple takes it", arguments: StoreKind.allCases)
    func retriedByTheReconciler(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        await fixture.emulator.setFaults(EmulatorFaults(endpoints: ["finishTransaction": EndpointFaults(errorRate: 1)]))
        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        let reconciler = try #require(await fixture.server.reconciler)

        await #expect(throws: ServerError.self) { try await reconciler.run() }
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try await fixture.store.purchase(store: .appStore, transactionId: transactionId)?.source == .reconciler)
        #expect(try await unfinished(fixture) == [transactionId])

        await fixture.emulator.setFaults(EmulatorFaults())
        let report = try await reconciler.run()
        #expect(report.processed == 1)
        #expect(try await unfinished(fixture).isEmpty)
        let events = try await fixture.store.events(transactionId: transactionId)
        #expect(events.filter { $0.type == .finishAtAppleFailed }.count == 1)
        let finished = try #require(events.first { $0.type == .finishedAtApple })
        #expect(finished.detail["source"] == "reconciler")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("a refusal that will not pass is recorded once and not tried again", arguments: StoreKind.allCases)
    func permanentRefusal(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let apple = CountingApple(
                answer: HTTPResponseData(
                    status: 404, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#.utf8)))
            let finisher = TransactionFinisher(
                client: AppStoreServerAPIClient(
                    baseURL: URL(string: "https://apple.invalid")!,
                    key: .generate(issuerId: "issuer", keyId: "KEY0000001", bundleId: "com.example.game"),
                    transport: apple),
                store: store, catalog: .sample, metrics: ServerMetrics(), logger: Logger(label: "test"))
            let purchase = try await store.deliver(
                Delivery(
                    store: .appStore,
                    transactionId: "2000000000000042", originalTransactionId: "2000000000000042", playerId: "alice",
                    productId: "coins100", environment: .sandbox, source: .notification,
                    grants: ["coins": 100], purchaseDate: Date())
            ).purchase

            try await finisher.finishIfOwed(purchase, deliveredBy: .notification)
            try await finisher.finishIfOwed(purchase, deliveredBy: .reconciler)
            #expect(await apple.calls == 1)
            let failed = try await store.events(transactionId: purchase.transactionId).filter {
                $0.type == .finishAtAppleFailed
            }
            #expect(failed.count == 1)
            #expect(failed.first?.detail["retryable"] == "false" && failed.first?.detail["errorCode"] == "4040010")
            // A delivery the app reported is not the server's to finish.
            try await finisher.finishIfOwed(purchase, deliveredBy: .clientSignedTransaction)
            #expect(await apple.calls == 1)
        }
    }

    @Test("configuration: on by default with the Server API, never without it; file and environment")
    func configuration() throws {
        let api = AppStoreServerAPISettings(baseURL: URL(string: "https://apple.invalid")!, issuerId: "i", keyId: "k")
        #expect(!ServerConfiguration().finishesTransactionsAtApple)
        #expect(ServerConfiguration(appStoreServerAPI: api).finishesTransactionsAtApple)
        #expect(
            !ServerConfiguration(appStoreServerAPI: api, finishTransactionsAtApple: false).finishesTransactionsAtApple)
        #expect(
            ServerConfiguration(finishTransactionsAtApple: true).validationProblems().contains(
                "finishTransactionsAtApple needs appStoreServerAPI"))

        let file = try JSONDecoder().decode(
            ServerConfiguration.self, from: Data(#"{"finishTransactionsAtApple":false}"#.utf8))
        #expect(file.finishTransactionsAtApple == false)
        #expect(
            try JSONDecoder().decode(ServerConfiguration.self, from: Data("{}".utf8)).finishTransactionsAtApple == nil)
        let off = try ServerConfiguration(appStoreServerAPI: api).applyingEnvironment([
            "STOREKEEPER_FINISH_TRANSACTIONS_AT_APPLE": "false"
        ])
        #expect(!off.finishesTransactionsAtApple)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration().applyingEnvironment(["STOREKEEPER_FINISH_TRANSACTIONS_AT_APPLE": "yes"])
        }
    }

    /// The device's unfinished transactions, as `GET /emulator/v1/devices/{id}/transactions/unfinished` lists them.
    private func unfinished(_ fixture: ServerFixture, device: String = "phone") async throws -> [String] {
        let answer = try await fixture.send(.get, "/emulator/v1/devices/\(device)/transactions/unfinished")
        guard answer.status == 200 else { throw FixtureError("unfinished transactions: \(answer)") }
        return try answer.decode([DeviceTransactionReply].self).map(\.transactionId)
    }

    private struct DeviceTransactionReply: Decodable {
        var transactionId: String
    }
}

/// Apple answering every call the same way, counting them.
private actor CountingApple: HTTPTransport {
    let answer: HTTPResponseData
    private(set) var calls = 0

    init(answer: HTTPResponseData) {
        self.answer = answer
    }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        calls += 1
        return answer
    }
}
