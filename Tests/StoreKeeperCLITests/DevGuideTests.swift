import Foundation
import TestProcesses
import Testing

/// What a newcomer meets first: the walk-through `serve --dev` prints runs as printed, and
/// a second server on the same port says the port is taken and creates nothing.
@Suite(.timeLimit(.minutes(3)))
struct DevGuideTests {
    @Test func theWalkThroughRunsAsPrintedAndASecondServerOnItsPortCreatesNothing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("guide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = LoopbackPort.unused()
        let server = try ChildServer.devServer(port: port, dataFolder: directory.appendingPathComponent("first"))
        defer { server.terminate() }
        try await server.waitUntilServing("/healthz")
        let commands = try await Self.walkThrough(printedBy: server)
        #expect(commands.contains { $0.contains("includeAppReceipt\\\":false") }, "the pay step asks for no receipt")

        // Run as printed, by bash, with curl and jq (installed by .ci/run, listed in README).
        let script = directory.appendingPathComponent("walk.sh")
        try (["set -euo pipefail"] + commands).joined(separator: "\n").write(
            to: script, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("walk.log")
        let walk = try ChildProcess.spawn(
            "/bin/bash", [script.path], standardOutput: .file(output.path), standardError: .standardOutput)
        let status = await walk.wait()
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(status == .exited(0), "\(printed)")
        #expect(printed.contains(#""coins":100"#), "the wallet shows the coins: \(printed)")
        #expect(printed.contains("delivered"), "the report was answered: \(printed)")
        #expect(printed.count < 60_000, "no receipt on the screen")

        // A second server on the same port.
        let second = directory.appendingPathComponent("second")
        let refused = try await CommandLineRunner.run([
            "serve", "--dev", "--port", "\(port)", "--database",
            "sqlite:" + second.appendingPathComponent("l.sqlite").path,
            "--dev-data-dir", second.appendingPathComponent("dev").path,
        ])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("127.0.0.1:\(port) is already in use"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("cancel"), "no alarming warnings: \(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: second.path), "nothing created")
    }

    /// The command lines of the printed walk-through (indented under "Try a purchase"), once
    /// the banner is out (after the server answers), at most 30 s.
    static func walkThrough(printedBy server: ChildServer) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
            if let start = log.range(of: "Try a purchase") {
                let lines = log[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
                let block = lines.drop { !$0.hasPrefix("  ") }.prefix { $0.hasPrefix("  ") }
                if block.contains(where: { $0.contains("/timeline") }) {
                    return block.map { String($0.dropFirst(2)) }
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw WalkThroughMissing(log: server.logTail)
    }

    struct WalkThroughMissing: Error, CustomStringConvertible {
        var log: String
        var description: String { "serve --dev printed no walk-through:\n\(log)" }
    }
}
