import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `storekeeper emulator` as a process: serves, keeps its state across a restart.
struct EmulatorCommandTests {
    /// A running `storekeeper emulator` child process.
    final class EmulatorProcess {
        let process = Process()
        let port: Int

        init(dataDir: URL, port: Int) throws {
            self.port = port
            process.executableURL = CommandLineRunner.executable
            process.arguments = ["emulator", "--port", "\(port)", "--data-dir", dataDir.path, "--time-scale", "0.0001"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func request(_ method: String, _ path: String, body: String? = nil) async throws -> (Int, [String: Any]) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            request.httpBody = body.map { Data($0.utf8) }
            let (data, response) = try await URLSession.shared.data(for: request)
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
        }

        func waitUntilReady() async throws {
            for _ in 0..<200 {
                if (try? await request("GET", "/emulator/v1/roots")) != nil { return }
                try await Task.sleep(for: .milliseconds(50))
            }
            Issue.record("the emulator did not start")
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    @Test func servesAppleAndDeviceEndpointsAndKeepsStateAcrossRestarts() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let port = Int.random(in: 20_000...40_000)

        let first = try EmulatorProcess(dataDir: dataDir, port: port)
        try await first.waitUntilReady()
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
        first.stop()

        let second = try EmulatorProcess(dataDir: dataDir, port: port)
        defer { second.stop() }
        try await second.waitUntilReady()
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
