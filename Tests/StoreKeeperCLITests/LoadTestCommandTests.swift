import Foundation
import Testing

/// `storekeeper loadtest` as a process, against a `storekeeper serve --dev` child process.
struct LoadTestCommandTests {
    @Test func helpNamesTheOptions() async throws {
        let output = try await CommandLineRunner.run(["loadtest", "--help"])
        #expect(output.status == 0)
        for option in [
            "--url", "--concurrency", "--seconds", "--player-secret", "--product", "--players", "--prepared",
            "--orders-only", "--json",
        ] {
            #expect(output.stdout.contains(option), "help lacks \(option)")
        }
    }

    @Test func rejectsPreparedWithOrdersOnly() async throws {
        let output = try await CommandLineRunner.run(["loadtest", "--prepared", "10", "--orders-only"])
        #expect(output.status != 0)
        let zero = try await CommandLineRunner.run(["loadtest", "--prepared", "0"])
        #expect(zero.status != 0)
    }

    @Test func deliversWithoutErrorsAgainstADevServer() async throws {
        let (server, port, folder) = try await Self.startDevServer()
        defer {
            server.terminate()
            try? FileManager.default.removeItem(at: folder)
        }

        let output = try await CommandLineRunner.run([
            "loadtest", "--url", "http://127.0.0.1:\(port)", "--concurrency", "2", "--seconds", "2", "--json",
        ])
        #expect(output.status == 0, "stderr: \(output.stderr)\nstdout: \(output.stdout)")
        let report = try output.json()
        #expect(report["errors"] as? Int == 0)
        #expect((report["deliveries"] as? Int ?? 0) > 0)
        let latency = report["latencyMilliseconds"] as? [String: Any]
        #expect(latency?["path"] != nil)
        #expect(latency?["report"] != nil)
    }

    @Test func preparedDeliversEachPurchaseOnceAndRestoresTheFaults() async throws {
        let (server, port, folder) = try await Self.startDevServer()
        defer {
            server.terminate()
            try? FileManager.default.removeItem(at: folder)
        }
        let faults =
            #"{"endpoints": {"verifyReceipt": {"latencyMs": 1}}, "notifications": {"duplicateRate": 0.5, "seed": 7}}"#
        let (putStatus, _) = try await server.request("PUT", "/emulator/v1/faults", body: faults)
        #expect(putStatus == 200)
        let (_, before) = try await server.request("GET", "/emulator/v1/faults")

        let output = try await CommandLineRunner.run([
            "loadtest", "--url", "http://127.0.0.1:\(port)", "--prepared", "30", "--concurrency", "4", "--players", "3",
            "--json",
        ])
        #expect(output.status == 0, "stderr: \(output.stderr)\nstdout: \(output.stdout)")
        let report = try output.json()
        #expect(report["mode"] as? String == "prepared")
        #expect(report["prepared"] as? Int == 30)
        #expect(report["delivered"] as? Int == 30)
        #expect(report["deliveries"] as? Int == 30)
        #expect(report["alreadyDelivered"] as? Int == 0)
        #expect(report["errors"] as? Int == 0)
        let latency = report["latencyMilliseconds"] as? [String: Any]
        #expect((latency?["report"] as? [String: Any])?["count"] as? Int == 30)
        #expect(latency?["charge"] == nil, "the emulator's charge is not timed")

        let (_, after) = try await server.request("GET", "/emulator/v1/faults")
        #expect(NSDictionary(dictionary: after).isEqual(to: before), "faults not restored: \(after) vs \(before)")
    }

    @Test func ordersOnlyCreatesOrders() async throws {
        let (server, port, folder) = try await Self.startDevServer()
        defer {
            server.terminate()
            try? FileManager.default.removeItem(at: folder)
        }
        let output = try await CommandLineRunner.run([
            "loadtest", "--url", "http://127.0.0.1:\(port)", "--orders-only", "--concurrency", "2", "--seconds", "1",
            "--json",
        ])
        #expect(output.status == 0, "stderr: \(output.stderr)\nstdout: \(output.stdout)")
        let report = try output.json()
        #expect(report["mode"] as? String == "orders-only")
        #expect((report["ordersPerSecond"] as? Double ?? 0) > 0)
        #expect(report["errors"] as? Int == 0)
    }

    /// A `serve --dev` child process on a random port with its SQLite ledger and dev data
    /// in a fresh temporary folder (the caller terminates it and removes the folder).
    private static func startDevServer() async throws -> (ChildServer, Int, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loadtest-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = LoopbackPort.unused()
        let server = try ChildServer.devServer(port: port, dataFolder: folder)
        try await server.waitUntilServing("/v1/products")
        return (server, port, folder)
    }
}
