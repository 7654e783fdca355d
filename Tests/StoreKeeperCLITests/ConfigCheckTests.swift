import Foundation
import Testing

/// `storekeeper config check`: every problem of a configuration in one run, nothing started.
struct ConfigCheckTests {
    @Test func everyProblemOfTheFileTheVariablesAndTheFilesTheyNameIsListedAtOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notACertificate = folder.appendingPathComponent("root.pem")
        try Data("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8).write(to: notACertificate)
        let notAKey = folder.appendingPathComponent("key.p8")
        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: notAKey)
        let file = folder.appendingPathComponent("server.json")
        try JSONSerialization.data(withJSONObject: [
            "bundleId": "", "deploymentEnvironment": "Sandbox", "allowedEnvironments": ["Sandbox"],
            "adminKey": "an-admin-key-long-enough",
            "additionalRoots": [notACertificate.path, folder.appendingPathComponent("missing.der").path],
            "appStoreServerAPI": [
                "baseURL": "https://api.storekit-sandbox.itunes.apple.com", "issuerId": "issuer", "keyId": "KEY",
                "privateKeyFile": notAKey.path,
            ],
        ]).write(to: file)
        let ledger = folder.appendingPathComponent("ledger.sqlite")

        let checked = try await CommandLineRunner.run(
            ["config", "check", "--config", file.path, "--database", "sqlite:\(ledger.path)"],
            environment: ["STOREKEEPER_APP_APPLE_ID": "twelve", "STOREKEEPER_CONSOLE_ENABLED": "maybe"])

        #expect(checked.status == 1)
        let expected = [
            "the configuration has 7 problems:",
            "STOREKEEPER_APP_APPLE_ID must be a number, not twelve",
            "STOREKEEPER_CONSOLE_ENABLED must be true or false, not maybe",
            "bundleId is empty",
            "playerTokenSecret (STOREKEEPER_PLAYER_TOKEN_SECRET) must be set",
            "additionalRoots: \(notACertificate.path) is not a DER or PEM certificate",
            "additionalRoots: cannot read \(folder.appendingPathComponent("missing.der").path)",
            "appStoreServerAPI's private key is not a P-256 key in PEM",
        ]
        for line in expected { #expect(checked.stderr.contains(line), "\(line)\n\(checked.stderr)") }
        #expect(!checked.stderr.contains("an-admin-key-long-enough"), "no secret is printed")
        #expect(!FileManager.default.fileExists(atPath: ledger.path), "nothing is created")
    }

    @Test func aConfigurationServeCanStartWithIsSaidToBeUsable() async throws {
        let checked = try await CommandLineRunner.run(
            ["config", "check", "--database", "sqlite:/nonexistent-dir/ledger.sqlite"],
            environment: [
                "STOREKEEPER_PLAYER_TOKEN_SECRET": "player-secret-long-enough",
                "STOREKEEPER_ADMIN_KEY": "admin-key-long-enough", "STOREKEEPER_BUNDLE_ID": "com.example.coins",
            ])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.hasPrefix("the configuration can be used: bundleId=com.example.coins"))
        #expect(!checked.stdout.contains("player-secret-long-enough") && !checked.stdout.contains("admin-key-long"))
    }

    @Test func aFileThatIsNotJSONIsReportedWithTheVariables() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).json")
        try Data("{".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let checked = try await CommandLineRunner.run(
            ["config", "check", "--config", file.path], environment: ["STOREKEEPER_REVOCATION_CHECK": "perhaps"])
        #expect(checked.status == 1)
        #expect(checked.stderr.contains("the configuration has 2 problems:"))
        #expect(checked.stderr.contains("\(file.path) is not a valid configuration"))
        #expect(checked.stderr.contains("STOREKEEPER_REVOCATION_CHECK must be true or false, not perhaps"))
    }
}
