import AppStoreSigning
import Foundation
import Ledger
import Testing

/// `storekeeper reconcile` while another instance's pass holds the reconciler lease: it
/// reads nothing, says so, and exits with status 3.
struct ReconcileSkipTests {
    @Test(arguments: [false, true])
    func skippedWhileAnotherInstanceHoldsTheLease(json: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reconcile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let databaseURL = "sqlite:" + directory.appendingPathComponent("ledger.sqlite").path
        let store = try makeLedgerStore(url: databaseURL)
        try await store.migrate()
        let lease = try await store.acquireLease("reconciler.lease", holder: "other-host:4242:abcd", duration: 600)
        try await store.close()

        let key = AppStoreServerAPIKey.generate(issuerId: "issuer", keyId: "KEY1234567", bundleId: "com.example.game")
        let configuration: [String: Any] = [
            "playerTokenSecret": "0123456789abcdef", "adminKey": "0123456789abcdef",
            // Never reached: a skipped pass asks Apple nothing.
            "appStoreServerAPI": [
                "baseURL": "http://127.0.0.1:9/sandbox", "issuerId": "issuer", "keyId": "KEY1234567",
                "privateKeyPEM": key.privateKeyPEM,
            ],
        ]
        let config = directory.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: configuration).write(to: config)
        let output = try await CommandLineRunner.run(
            ["reconcile", "--config", config.path, "--database", databaseURL] + (json ? ["--json"] : []))
        #expect(output.status == 3, "\(output.stdout) \(output.stderr)")
        if json {
            let answer = try output.json()
            #expect(answer["skipped"] as? Bool == true)
            #expect(answer["leaseHolder"] as? String == "other-host:4242:abcd")
            #expect(answer["leaseExpiresAt"] as? String == lease.expiresAt.formatted(.iso8601))
        } else {
            #expect(output.stdout.contains("skipped: another instance (other-host:4242:abcd)"), "\(output.stdout)")
        }
    }
}
