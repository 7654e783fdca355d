import Foundation
import Testing

/// `storekeeper emulator` as a process: serves, keeps its state across a restart.
struct EmulatorCommandTests {
    /// Starts `storekeeper emulator` on `dataDir`.
    static func emulator(dataDir: URL, port: Int) throws -> ChildServer {
        try ChildServer(
            ["emulator", "--port", "\(port)", "--data-dir", dataDir.path, "--time-scale", "0.0001"], port: port)
    }

    /// The Play push options reach the emulator: `GET /emulator/v1/play/push` reads them back.
    @Test func thePlayPushOptionsConfigureThePushes() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let port = LoopbackPort.unused()
        let server = try ChildServer(
            [
                "emulator", "--port", "\(port)", "--data-dir", dataDir.path, "--play-push-url",
                "http://127.0.0.1:9/v1/notifications/google", "--play-push-audience", "storekeeper",
                "--play-push-email", "rtdn@example.iam.gserviceaccount.com",
            ], port: port)
        defer { server.terminate() }
        try await server.waitUntilServing("/emulator/v1/roots")
        let (status, push) = try await server.request("GET", "/emulator/v1/play/push")
        #expect(status == 200)
        #expect(push["url"] as? String == "http://127.0.0.1:9/v1/notifications/google")
        #expect(push["audience"] as? String == "storekeeper")
        #expect(push["serviceAccountEmail"] as? String == "rtdn@example.iam.gserviceaccount.com")
    }

    /// A notification client that kept an idle connection longer than the receiving server
    /// (`HTTPClient.shared` keeps one 600 s, StoreKeeper's server 30 s) could post on it as
    /// the server closed it: the notification failed unanswered and waited for Apple's next
    /// retry. The emulator now closes an idle connection after `--notification-idle-seconds`.
    @Test func theEmulatorClosesAnIdleNotificationConnectionFirst() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let receiver = try await IdleConnectionWatcher()
        let port = LoopbackPort.unused()
        let server = try ChildServer(
            [
                "emulator", "--port", "\(port)", "--data-dir", dataDir.path, "--notification-url", receiver.url,
                "--notification-idle-seconds", "1",
            ], port: port)
        defer { server.terminate() }
        try await server.waitUntilServing("/emulator/v1/roots")
        let (status, _) = try await server.request(
            "POST", "/emulator/v1/devices/phone/purchases", body: #"{"productId":"levelpack1"}"#)
        #expect(status == 200)

        // ONE_TIME_CHARGE arrives, then the connection it came on ends, the emulator closing
        // it (the receiver never does) within seconds, not minutes.
        let observed = Task {
            var events: [IdleConnectionWatcher.Event] = []
            for await event in receiver.events {
                events.append(event)
                if event == .closed { break }
            }
            return events
        }
        let deadline = Task {
            try await Task.sleep(for: .seconds(20))
            observed.cancel()
        }
        let events = await observed.value
        deadline.cancel()
        await receiver.stop()
        #expect(events == [.answered, .closed], "\(events)")
    }

    @Test func servesAppleAndDeviceEndpointsAndKeepsStateAcrossRestarts() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let port = LoopbackPort.unused()

        let first = try Self.emulator(dataDir: dataDir, port: port)
        try await first.waitUntilServing("/emulator/v1/roots")
        let (status, purchase) = try await first.request(
            "POST", "/emulator/v1/devices/phone/purchases", body: #"{"productId":"levelpack1"}"#
        )
        #expect(status == 200)
        let receipt = try #require(purchase["appReceipt"] as? String)
        let (_, roots) = try await first.request("GET", "/emulator/v1/roots")
        let verify = try await first.request("POST", "/sandbox/verifyReceipt", body: #"{"receipt-data":"\#(receipt)"}"#)
        #expect(verify.1["status"] as? Int == 0)
        let crossed = try await first.request(
            "POST", "/production/verifyReceipt", body: #"{"receipt-data":"\#(receipt)"}"#)
        #expect(crossed.1["status"] as? Int == 21_007)
        first.terminate()

        let second = try Self.emulator(dataDir: dataDir, port: port)
        defer { second.terminate() }
        try await second.waitUntilServing("/emulator/v1/roots")
        let (_, rootsAfter) = try await second.request("GET", "/emulator/v1/roots")
        #expect(rootsAfter["jws"] as? String == roots["jws"] as? String)
        #expect(rootsAfter["receipt"] as? String == roots["receipt"] as? String)
        let again = try await second.request("POST", "/sandbox/verifyReceipt", body: #"{"receipt-data":"\#(receipt)"}"#)
        #expect(again.1["status"] as? Int == 0, "a receipt from before the restart still verifies")
        let (_, receiptNow) = try await second.request("GET", "/emulator/v1/devices/phone/receipt")
        let now = try await second.request(
            "POST", "/sandbox/verifyReceipt", body: #"{"receipt-data":"\#(receiptNow["appReceipt"] as? String ?? "")"}"#
        )
        let inApp = (now.1["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]]
        #expect(inApp?.first?["transaction_id"] as? String == purchase["transactionId"] as? String)
    }
}
