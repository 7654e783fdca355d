import Foundation

/// A staging deployment's files for `storekeeper serve --config`: a standalone
/// `storekeeper emulator` as Apple (verifyReceipt and the App Store Server API on its
/// port), its roots trusted through `additionalRoots`, its Server API key, a webhook.
struct StagingDeployment {
    static let playerSecret = "staging-player-secret"
    static let adminKey = "staging-admin-key"

    /// The configuration file.
    let configFile: URL

    /// Fetches the running emulator's roots (`GET /emulator/v1/roots`: the JWS root written
    /// as DER, the receipt root as PEM) and Server API key (`GET /emulator/v1/server-api-key`)
    /// into `folder`, and writes the configuration next to them.
    init(folder: URL, emulatorPort: Int, webhookURL: String, reconcilerIntervalSeconds: Double) async throws {
        let (rootsStatus, roots) = try await LoopbackHTTP.request(port: emulatorPort, "GET", "/emulator/v1/roots")
        let (keyStatus, key) = try await LoopbackHTTP.request(port: emulatorPort, "GET", "/emulator/v1/server-api-key")
        guard rootsStatus == 200, keyStatus == 200,
            let jws = (roots["jws"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let receipt = (roots["receipt"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let privateKey = key["privateKey"] as? String
        else { throw SetupError("the emulator did not serve its roots and key: \(roots) \(key)") }
        let jwsRoot = folder.appendingPathComponent("emulator-jws-root.der")
        let receiptRoot = folder.appendingPathComponent("emulator-receipt-root.pem")
        let keyFile = folder.appendingPathComponent("emulator-server-api-key.p8")
        try jws.write(to: jwsRoot)
        let pem = receipt.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        try Data("-----BEGIN CERTIFICATE-----\n\(pem)\n-----END CERTIFICATE-----\n".utf8).write(to: receiptRoot)
        try Data(privateKey.utf8).write(to: keyFile)

        let apple = "http://127.0.0.1:\(emulatorPort)"
        let configuration: [String: Any] = [
            "bundleId": key["bundleId"] as? String ?? "com.example.game",
            "deploymentEnvironment": "Sandbox",
            "allowedEnvironments": ["Sandbox"],
            "playerTokenSecret": Self.playerSecret,
            "adminKey": Self.adminKey,
            "additionalRoots": [jwsRoot.path, receiptRoot.path],
            "verifyReceipt": [
                "mode": "fallback", "productionURL": "\(apple)/production", "sandboxURL": "\(apple)/sandbox",
            ],
            "appStoreServerAPI": [
                "baseURL": "\(apple)/sandbox", "issuerId": key["issuerId"] as? String ?? "",
                "keyId": key["keyId"] as? String ?? "", "privateKeyFile": keyFile.path,
            ],
            "reconcilerIntervalSeconds": reconcilerIntervalSeconds,
            "webhook": ["url": webhookURL, "secret": "staging-webhook-secret", "timeoutSeconds": 5],
        ]
        configFile = folder.appendingPathComponent("staging.json")
        try JSONSerialization.data(withJSONObject: configuration, options: [.sortedKeys]).write(to: configFile)
    }

    /// The arguments of one `serve` instance of this deployment.
    func serveArguments(port: Int, databaseURL: String) -> [String] {
        [
            "serve", "--config", configFile.path, "--database", databaseURL, "--port", "\(port)", "--hostname",
            "127.0.0.1",
        ]
    }

    /// A player token under the deployment's secret.
    static func token(_ player: String) async throws -> String {
        try await CommandLineRunner.run(["token", "--player", player, "--secret", playerSecret]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct SetupError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
