import Foundation
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Synchronization
import Testing

/// A push sink that keeps what it is handed.
final class RecordingSink: PlayPushSink {
    private let pushes = Mutex<[PlayPush]>([])

    /// The notifications handed over so far, in order.
    func notifications() throws -> [DeveloperNotification] {
        try pushes.withLock { $0 }.map { push in
            let envelope = try JSONDecoder().decode(PubSubPushEnvelope.self, from: push.body)
            return try JSONDecoder().decode(
                DeveloperNotification.self, from: try #require(Data(base64Encoded: envelope.message.data)))
        }
    }

    /// The message ids handed over so far.
    var messageIds: [String] { pushes.withLock { $0.map(\.messageId) } }

    func submit(_ push: PlayPush) async -> Bool {
        pushes.withLock { $0.append(push) }
        return true
    }

    func setEndpoint(_ url: URL?) async {}
}

/// The Play side's outbox: notifications are kept from the change that caused them until
/// their push ends, across a restart, and the three-day rule's lazy void is told once.
@Suite struct PlayNotificationOutboxTests {
    static func emulator(directory: URL, clock: ManualClock) throws -> PlayEmulator {
        try PlayEmulator(
            packageName: "com.example.game", dataDirectory: directory, baseURL: nil, now: { clock.now },
            products: { PlayProduct(productId: $0, isOneTime: true) })
    }

    /// The void the three-day rule finds on a read is handed over once, however often the
    /// purchase is read afterwards, with the moment the window closed as its event time.
    @Test func theThreeDayRulesVoidIsToldOnce() async throws {
        let clock = ManualClock()
        let play = try Self.emulator(directory: try PlayFixture.keyDirectory(), clock: clock)
        let sink = RecordingSink()
        play.attach(sink: sink)
        let bought = try play.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        let paidAt = clock.now
        clock.advance(by: 3 * 86_400 + 5)
        for _ in 0..<3 {
            _ = try play.productPurchase(
                packageName: "com.example.game", productId: "coins100", token: bought.purchaseToken)
            await play.sendPendingNotifications()
        }
        let notifications = try sink.notifications()
        #expect(notifications.count == 2)
        #expect(notifications.first?.oneTimeProductNotification?.notificationType == 1)
        let voided = try #require(notifications.last)
        #expect(
            voided.voidedPurchaseNotification
                == VoidedPurchaseNotification(
                    purchaseToken: bought.purchaseToken, orderId: bought.orderId, productType: 2, refundType: 1))
        #expect(voided.eventTimeMillis == String(Int64((paidAt.timeIntervalSince1970 + 3 * 86_400) * 1000)))
        // Until their pushes end, both are kept; then none.
        #expect(play.pendingNotifications.count == 2)
        for id in sink.messageIds { play.pushEnded(messageId: id) }
        #expect(play.pendingNotifications.isEmpty)
    }

    /// A notification not delivered when the emulator stops is in `play-state.json` and is
    /// handed over after the restart, with the same message id; a delivered one is not.
    @Test func undeliveredNotificationsSurviveARestart() async throws {
        let clock = ManualClock()
        let directory = try PlayFixture.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Self.emulator(directory: directory, clock: clock)
        let before = RecordingSink()
        first.attach(sink: before)
        let delivered = try first.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "coins100"))
        await first.sendPendingNotifications()
        first.pushEnded(messageId: try #require(before.messageIds.first))
        let kept = try first.purchase(deviceId: "d", PlayDevicePurchaseRequest(productId: "sword"))
        await first.sendPendingNotifications()

        let second = try Self.emulator(directory: directory, clock: clock)
        #expect(second.pendingNotifications.map(\.oneTimeProductNotification?.purchaseToken) == [kept.purchaseToken])
        let after = RecordingSink()
        second.attach(sink: after)
        await second.sendPendingNotifications()
        #expect(after.messageIds == [before.messageIds[1]])
        #expect(try after.notifications().first?.oneTimeProductNotification?.purchaseToken != delivered.purchaseToken)
        // Handed over once per process.
        await second.sendPendingNotifications()
        #expect(after.messageIds.count == 1)
    }
}
