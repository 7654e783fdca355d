import AppStoreEmulator
import AppStoreModel
import EmulatorTestSupport
import Foundation
import Testing

/// The renewal clock, driven through explicit times: on a time scale of 1/8640 a 30-day
/// month lasts 5 minutes and the 16-day grace period 160 seconds.
struct RenewalClockTests {
    static let scale = 1.0 / 8_640
    static let month: Int64 = 300_000
    static let grace: Int64 = 160_000

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    @Test func periodsRenewFailIntoGraceRecoverAndExpire() async throws {
        let fixture = try await EmulatorFixture(subscriptionTimeScale: Self.scale)
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        let id = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly")).transactionId)
        let first = try #require(try await probe.only().transaction)
        let end = try #require(first.expiresDate)
        #expect(end == (first.purchaseDate ?? 0) + Self.month)

        #expect(try await emulator.processDueSubscriptions(now: Self.date(end - 1)) == 0)
        #expect(try await probe.names() == [])
        #expect(try await emulator.processDueSubscriptions(now: Self.date(end + 2 * Self.month)) == 3)
        let renewals = try await probe.next()
        #expect(renewals.map(\.name) == ["DID_RENEW", "DID_RENEW", "DID_RENEW"])
        #expect(renewals.map { $0.transaction?.purchaseDate } == [end, end + Self.month, end + 2 * Self.month])
        let lastEnd = end + 3 * Self.month

        try await emulator.updateDevice("ann", settings: DeviceSettings(billingFails: true))
        #expect(try await emulator.processDueSubscriptions(now: Self.date(lastEnd)) == 1)
        let failed = try await probe.only()
        #expect(failed.name == "DID_FAIL_TO_RENEW/GRACE_PERIOD")
        #expect(failed.renewal?.gracePeriodExpiresDate == lastEnd + Self.grace)
        #expect(try await emulator.processDueSubscriptions(now: Self.date(lastEnd + Self.grace - 1)) == 0)
        #expect(try await emulator.processDueSubscriptions(now: Self.date(lastEnd + Self.grace)) == 1)
        #expect(try await probe.names() == ["GRACE_PERIOD_EXPIRED"])

        try await emulator.updateDevice("ann", settings: DeviceSettings(billingFails: false))
        #expect(try await emulator.processDueSubscriptions(now: Self.date(lastEnd + Self.grace + 1)) == 1)
        let recovered = try await probe.only()
        #expect(recovered.name == "DID_RENEW/BILLING_RECOVERY")
        let recoveredEnd = try #require(recovered.transaction?.expiresDate)

        try await emulator.setAutoRenew(deviceId: "ann", originalTransactionId: id, enabled: false)
        _ = try await probe.next()
        #expect(try await emulator.processDueSubscriptions(now: Self.date(recoveredEnd)) == 1)
        #expect(try await probe.names() == ["EXPIRED/VOLUNTARY"])
        #expect(try await emulator.processDueSubscriptions(now: Self.date(recoveredEnd + 10 * Self.month)) == 0)
    }

    @Test func billingRetryExpiresAfterSixtyDays() async throws {
        let fixture = try await EmulatorFixture(subscriptionTimeScale: Self.scale)
        defer { fixture.remove() }
        let emulator = fixture.emulator
        var probe = SubscriptionProbe(emulator)
        try await emulator.updateDevice("ann", settings: DeviceSettings(billingFails: true))
        let id = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly")).transactionId)
        let end = try #require(try await probe.only().transaction?.expiresDate)
        let retry = 2 * Self.month  // 60 days
        #expect(try await emulator.processDueSubscriptions(now: Self.date(end + retry - 1)) == 2)
        #expect(try await probe.names() == ["DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED"])
        #expect(try await emulator.processDueSubscriptions(now: Self.date(end + retry)) == 1)
        let expired = try await probe.only()
        #expect(expired.name == "EXPIRED/BILLING_RETRY")
        #expect(expired.renewal?.expirationIntent == .billingError)
        #expect(try await emulator.subscriptionStatus(id) == .expired)
    }

    @Test func theClockRunsByItselfOnATinyScale() async throws {
        let directory = try TestEmulatorDirectory.make("emulator")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (bodies, delivered) = AsyncStream.makeStream(of: Data.self)
        // A 30-day month in 0.3 s: the clock ticks every 50 ms and renews by itself.
        let emulator = try await AppStoreEmulator(
            configuration: EmulatorConfiguration(
                dataDirectory: directory, notificationURL: URL(string: "http://127.0.0.1:9/notifications"),
                subscriptionTimeScale: 1.0 / 8_640_000),
            transport: StreamingTransport(delivered: delivered))
        let verifier = SubscriptionProbe(emulator).verifier
        let id = try #require(
            try await emulator.purchase(deviceId: "ann", PurchaseRequest(productId: "vip.monthly")).transactionId)
        // Waits for the clock's first DID_RENEW as it is delivered, a minute at most.
        let renewal = try await withThrowingTaskGroup(of: JWSTransactionDecodedPayload?.self) { group in
            group.addTask {
                for await body in bodies {
                    let envelope = try JSONDecoder().decode([String: String].self, from: body)
                    let told = try await verifier.verifyNotification(try #require(envelope["signedPayload"]))
                    if told.notification.notificationType == .didRenew { return told.transaction }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        await emulator.shutdown()
        delivered.finish()
        #expect(renewal?.originalTransactionId == id, "the clock renewed the subscription by itself")
        let invalid = await #expect(throws: EmulatorError.self) {
            try await AppStoreEmulator(
                configuration: EmulatorConfiguration(dataDirectory: directory, subscriptionTimeScale: 0))
        }
        #expect(invalid?.code == "invalid_configuration")
    }
}

/// Hands every notification body the emulator delivers to a stream, answering 200.
private struct StreamingTransport: NotificationTransport {
    let delivered: AsyncStream<Data>.Continuation

    func post(_ body: Data, to url: URL) async -> NotificationDeliveryResult {
        delivered.yield(body)
        return .response(statusCode: 200)
    }
}
