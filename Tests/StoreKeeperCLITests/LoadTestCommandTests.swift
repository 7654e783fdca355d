import Foundation
import Testing

/// `storekeeper loadtest` as a process, against a `storekeeper serve --dev` child process.
struct LoadTestCommandTests {
    @Test func helpNamesTheOptions() throws {
        let output = try CommandLineRunner.run(["loadtest", "--help"])
        #expect(output.status == 0)
        for option in ["--url", "--concurrency", "--seconds", "--player-secret", "--product", "--players", "--json"] {
            #expect(output.stdout.contains(option), "help lacks \(option)")
        }
    }

    @Test func deliversWithoutErrorsAgainstADevServer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loadtest-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = Int.random(in: 20_000...40_000)
        let server = try ChildServer(
            [
                "serve", "--dev", "--port", "\(port)",
                "--database", "sqlite:" + folder.appendingPathComponent("ledger.sqlite").path,
                "--dev-data-dir", folder.appendingPathComponent("dev").path,
            ],
            port: port)
        defer { server.terminate() }
        try await server.waitUntilServing("/v1/products")

        let output = try CommandLineRunner.run([
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
}
