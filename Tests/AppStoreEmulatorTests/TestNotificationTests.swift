import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import EmulatorTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Request a Test Notification and Get Test Notification Status over HTTP.
struct TestNotificationTests {
    @Test func theStatusShowsTheTestNotificationAndItsAttempts() async throws {
        let directory = try TestEmulatorDirectory.make("emulator")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = HeldTransport()
        let emulator = try await AppStoreEmulator(
            configuration: EmulatorConfiguration(
                dataDirectory: directory, notificationURL: URL(string: "http://receiver.invalid/notifications"),
                timeScale: 0.00001),
            transport: transport)
        let verifier = JWSVerifier(roots: emulator.trustRoots)
        let bearer = "Bearer " + (try emulator.identity.apiKey.makeToken())
        let router = Router()
        emulator.addRoutes(to: router)
        try await Application(router: router).test(.router) { client in
            func get(_ path: String) async throws -> TestResponse {
                try await client.execute(uri: path, method: .get, headers: [.authorization: bearer])
            }
            let requested = try await client.execute(
                uri: "/sandbox/inApps/v1/notifications/test", method: .post, headers: [.authorization: bearer])
            #expect(requested.status == .ok)
            let token = try #require(
                try JSON.decode(SendTestNotificationResponse.self, requested.body).testNotificationToken)

            // The first attempt is under way: the notification, no attempt yet.
            let pending = try await get("/sandbox/inApps/v1/notifications/test/\(token)")
            #expect(pending.status == .ok)
            let before = try JSON.decode(CheckTestNotificationResponse.self, pending.body)
            #expect(before.sendAttempts == [])
            let notification = try await verifier.verifyNotification(try #require(before.signedPayload))
            #expect(notification.notification.notificationType == .test)
            #expect(notification.notification.notificationUUID == token)

            await transport.release()
            await emulator.waitForNotificationDeliveries()
            let after = try JSON.decode(
                CheckTestNotificationResponse.self, try await get("/sandbox/inApps/v1/notifications/test/\(token)").body
            )
            #expect(after.sendAttempts?.map(\.sendAttemptResult) == [.success])
            #expect(after.signedPayload == before.signedPayload)

            // Another environment's token, a notification that is not a TEST, or no token at all.
            _ = try await emulator.purchase(deviceId: "p", PurchaseRequest(productId: "coins100"))
            let purchaseNotification = try #require(await emulator.notifications().last?.notificationUUID)
            for path in [
                "/production/inApps/v1/notifications/test/\(token)",
                "/sandbox/inApps/v1/notifications/test/\(purchaseNotification)",
                "/sandbox/inApps/v1/notifications/test/no-such-token",
            ] {
                try expectAPIError(try await get(path), .notFound, .testNotificationNotFound)
            }
        }
        await emulator.shutdown()
    }

    @Test func withoutANotificationURLThereIsNoTest() async throws {
        let fixture = try await EmulatorFixture()
        defer { fixture.remove() }
        try await fixture.live { _, client in
            try expectAPIError(
                try await fixture.call(client, .post, "v1/notifications/test"), .notFound,
                .serverNotificationURLNotFound)
            #expect(await fixture.emulator.notifications().isEmpty, "nothing was sent")
        }
    }
}

/// Holds every delivery until released, then accepts it.
private actor HeldTransport: NotificationTransport {
    private var held = true
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func post(_ body: Data, to url: URL) async -> NotificationDeliveryResult {
        if held { await withCheckedContinuation { waiting.append($0) } }
        return .response(statusCode: 200)
    }

    func release() {
        held = false
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
