import Foundation
import Testing

/// `storekeeper loadtest` as a process, against a `storekeeper serve --dev` child process.
///
/// One test at a time: a loaded clean-clone run once had two of these tests' prepared runs
/// reach one server (the listener found was the other test's, and each left the other's
/// faults in place); the cause is not known, and one loadtest at a time rules it out.
@Suite(.serialized)
struct LoadTestCommandTests {
    @Test func helpNamesTheOptions() async throws {
        let output = try await CommandLineRunner.run(["loadtest", "--help"])
        #expect(output.status == 0)
        for option in [
            "--url", "--concurrency", "--seconds", "--player-secret", "--product", "--players", "--prepared",
            "--orders-only", "--json", "--server-pid", "--export-wrk",
        ] {
            #expect(output.stdout.contains(option), "help lacks \(option)")
        }
    }

    @Test func rejectsPreparedWithOrdersOnly() async throws {
        let output = try await CommandLineRunner.run(["loadtest", "--prepared", "10", "--orders-only"])
        #expect(output.status != 0)
        let zero = try await CommandLineRunner.run(["loadtest", "--prepared", "0"])
        #expect(zero.status != 0)
        let export = try await CommandLineRunner.run(["loadtest", "--export-wrk", "/tmp/nowhere"])
        #expect(export.status != 0)
        #expect(export.stderr.contains("--export-wrk needs --prepared"))
        let pid = try await CommandLineRunner.run(["loadtest", "--server-pid", "0"])
        #expect(pid.status != 0)
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
        // The server is found by its listening socket; its CPU time is the timed phase's.
        let cpu = try #require(report["cpu"] as? [String: Any])
        #expect(cpu["serverPid"] as? Int == Int(server.child.pid), "cpu: \(cpu)")
        #expect(cpu["serverNote"] as? String == "the listener on port \(port)")
        #expect((cpu["serverSeconds"] as? Double).map { $0 >= 0 } == true)
        #expect(cpu["loadGeneratorMicrosecondsPerDelivery"] is Double)
        #expect(cpu["loadAverageStart"] is [String: Any] && cpu["loadAverageEnd"] is [String: Any])
        let floor = try #require(report["floor"] as? [String: Any])
        #expect((floor["p50Microseconds"] as? Double ?? 0) > 0)
        #expect((floor["verifies"] as? Int ?? 0) > 20)
        #expect((floor["signingInputBytes"] as? Int ?? 0) > 3_000)
        if let perDelivery = cpu["serverMicrosecondsPerDelivery"] as? Double, perDelivery > 0 {
            let ratio = try #require(report["serverCPUPerDeliveryToFloor"] as? Double)
            #expect(abs(ratio - perDelivery / (floor["p50Microseconds"] as? Double ?? 1)) < 1e-6)
        }

        let (_, after) = try await server.request("GET", "/emulator/v1/faults")
        #expect(NSDictionary(dictionary: after).isEqual(to: before), "faults not restored: \(after) vs \(before)")
    }

    @Test func exportWritesEachPreparedReportOnceForWrk() async throws {
        let (server, port, folder) = try await Self.startDevServer()
        defer {
            server.terminate()
            try? FileManager.default.removeItem(at: folder)
        }
        let (_, before) = try await server.request("GET", "/emulator/v1/faults")
        let export = folder.appendingPathComponent("wrk export")
        let output = try await CommandLineRunner.run([
            "loadtest", "--url", "http://127.0.0.1:\(port)", "--prepared", "12", "--concurrency", "5", "--players", "2",
            "--export-wrk", export.path, "--json",
        ])
        #expect(output.status == 0, "stderr: \(output.stderr)\nstdout: \(output.stdout)")
        let answer = try output.json()
        #expect(answer["prepared"] as? Int == 12)
        #expect(answer["serverPid"] as? Int == Int(server.child.pid))
        #expect(((answer["floor"] as? [String: Any])?["p50Microseconds"] as? Double ?? 0) > 0)
        let wrk = try #require(answer["wrkCommand"] as? String)
        #expect(wrk.hasPrefix("wrk --threads "))
        #expect(
            wrk.contains(
                "--script Scripts/perf/wrk-report.lua http://127.0.0.1:\(port) -- '\(export.path)/purchases.tsv' "))

        // One line per purchase: a player's token, a tab, a report body; each order once.
        let lines = try String(contentsOf: export.appendingPathComponent("purchases.tsv"), encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.count == 12)
        var orders = Set<String>()
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            try #require(fields.count == 2, "line: \(line)")
            let body = try #require(
                try JSONSerialization.jsonObject(with: Data(fields[1].utf8)) as? [String: String])
            orders.insert(try #require(body["orderId"]))
            #expect(body["signedTransaction"]?.split(separator: ".").count == 3)
        }
        #expect(orders.count == 12)

        // The notifications stay off until the faults are put back; nothing delivered them.
        let (_, during) = try await server.request("GET", "/emulator/v1/faults")
        #expect((during["notifications"] as? [String: Any])?["dropRate"] as? Double == 1)
        for line in lines {
            let fields = line.split(separator: "\t")
            let (status, report) = try await server.request(
                "POST", "/v1/purchases", token: String(fields[0]), body: String(fields[1]))
            #expect(status == 200)
            #expect(report["status"] as? String == "delivered", "\(report)")
        }
        let faults = try String(contentsOf: export.appendingPathComponent("faults-before.json"), encoding: .utf8)
        let (putStatus, _) = try await server.request("PUT", "/emulator/v1/faults", body: faults)
        #expect(putStatus == 200)
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
