import Foundation
import Testing

/// `storekeeper serve --config` with `additionalRoots`: refused before anything is opened
/// when the deployment says Production or a root file cannot be read.
struct StagingServeTests {
    /// Runs `serve` with `configuration` (JSON) on a SQLite path in a fresh folder; the
    /// output and whether the folder's ledger file was created.
    static func serve(_ configuration: String) async throws -> (CommandLineRunner.Output, created: Bool) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try Data(configuration.utf8).write(to: config)
        let ledger = directory.appendingPathComponent("ledger.sqlite").path
        let output = try await CommandLineRunner.run([
            "serve", "--config", config.path, "--database", "sqlite:\(ledger)",
        ])
        return (output, FileManager.default.fileExists(atPath: ledger))
    }

    @Test func additionalRootsInAProductionDeploymentExitWithStatus2() async throws {
        let (output, created) = try await Self.serve(
            #"""
            {"playerTokenSecret": "0123456789abcdef", "adminKey": "0123456789abcdef",
             "deploymentEnvironment": "Production", "additionalRoots": ["/etc/storekeeper/emulator-root.der"]}
            """#)
        #expect(output.status == 2)
        #expect(output.stderr.contains("additionalRoots"), "\(output.stderr)")
        #expect(output.stderr.contains("deploymentEnvironment Production"), "\(output.stderr)")
        #expect(!created, "nothing is opened before the check")
    }

    @Test func anUnreadableRootFileExitsWithStatus2NamingIt() async throws {
        let (output, created) = try await Self.serve(
            #"""
            {"playerTokenSecret": "0123456789abcdef", "adminKey": "0123456789abcdef",
             "deploymentEnvironment": "Sandbox", "additionalRoots": ["/nonexistent/emulator-root.der"]}
            """#)
        #expect(output.status == 2)
        #expect(output.stderr.contains("/nonexistent/emulator-root.der"), "\(output.stderr)")
        #expect(!created, "nothing is opened before the check")
    }
}
