import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Notifications reach a real HTTP endpoint and follow Apple's retry schedule.
struct NotificationDeliveryTests {
    /// A receiver that fails the first `failures` posts, then answers 200.
    actor Receiver {
        let failures: Int
        private(set) var posts: [Data] = []

        init(failures: Int) { self.failures = failures }

        func handle(_ request: Request) async throws -> HTTPResponse.Status {
            var request = request
            let body = Data(try await request.collectBody(upTo: 1 << 20).readableBytesView)
            posts.append(body)
            return posts.count <= failures ? .internalServerError : .ok
        }
    }

    @Test func failedDeliveriesAreRetriedOnTheScaledScheduleAndRecorded() async throws {
        let timeScale = 0.00002  // 1 h = 72 ms, 12 h = 0.86 s
        let fixture = try await EmulatorFixture(timeScale: timeScale)
        defer { fixture.remove() }
        let receiver = Receiver(failures: 2)
        let router = Router()
        router.post("notifications") { request, _ in try await receiver.handle(request) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            await fixture.emulator.setNotificationURL(URL(string: "http://127.0.0.1:\(port)/notifications"))
            let purchase = try await fixture.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins100"))
            await fixture.emulator.waitForNotificationDeliveries()

            let posts = await receiver.posts
            #expect(posts.count == 3)

            let body = try JSONDecoder().decode(ResponseBodyV2.self, from: posts[2])
            let verified = try await JWSVerifier(roots: fixture.emulator.trustRoots)
                .verifyNotification(try #require(body.signedPayload))
            #expect(verified.notification.notificationType == .oneTimeCharge)
            #expect(verified.transaction?.transactionId == purchase.transactionId)
            #expect(Set(posts).count == 1, "every attempt posts the same signed payload")

            let history = try #require(await fixture.emulator.notifications().first)
            let results = history.attempts.map(\.sendAttemptResult)
            #expect(results.count == 3)
            // The receiver answers 500 twice; on a machine loaded enough that its answer comes
            // after the transport's timeout (5 s), Apple's record of that attempt is TIMED_OUT.
            #expect(
                results.dropLast().allSatisfy { ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "TIMED_OUT"].contains($0) },
                "\(results)")
            #expect(results.last == "SUCCESS")
            #expect(history.isDelivered)
            let attemptDates = history.attempts.map { Double($0.attemptDate) / 1000 }
            let gaps = zip(attemptDates.dropFirst(), attemptDates).map { $0 - $1 }
            #expect(gaps[0] >= 3600 * timeScale - 0.002, "first retry 1 h (scaled) after the first attempt")
            #expect(gaps[1] >= 12 * 3600 * timeScale - 0.002, "second retry 12 h (scaled) after the second")
            // Only lower bounds: on a loaded machine an attempt may start late, never early.

            // The journaled attempts come back after a restart.
            await fixture.emulator.shutdown()
            let restarted = try await EmulatorFixture(directory: fixture.directory)
            #expect(await restarted.emulator.notifications().first?.attempts == history.attempts)
            await restarted.emulator.shutdown()
        }
    }

    @Test func droppedNotificationsAreNeverSentButStayInHistory() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        let receiver = Receiver(failures: 0)
        let router = Router()
        router.post("notifications") { request, _ in try await receiver.handle(request) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            await fixture.emulator.setNotificationURL(URL(string: "http://127.0.0.1:\(port)/notifications"))
            await fixture.emulator.setFaults(EmulatorFaults(seed: 3, notifications: NotificationFaults(dropRate: 1)))
            _ = try await fixture.emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins100"))
            await fixture.emulator.waitForNotificationDeliveries()
            #expect(await receiver.posts.isEmpty)
            let history = await fixture.emulator.notifications()
            #expect(history.count == 1)
            #expect(history.first?.isDelivered == false)
        }
    }
}
