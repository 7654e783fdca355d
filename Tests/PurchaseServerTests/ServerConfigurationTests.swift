import AppStoreModel
import Foundation
import PurchaseServer
import Testing

@Suite("Server configuration")
struct ServerConfigurationTests {
    @Test("a file sets what it names and keeps the defaults for the rest")
    func fileWithDefaults() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(
            #"""
            {"bundleId": "com.studio.game", "allowedEnvironments": ["Production", "Sandbox"],
             "catalog": {"products": [{"productId": "gems10", "type": "Consumable", "grants": {"gems": 10}}]},
             "webhook": {"url": "https://game.example/hooks/storekeeper", "secret": "whsec-1"}}
            """#.utf8
        ).write(to: url)
        let configuration = try ServerConfiguration.load(from: url)
        #expect(configuration.bundleId == "com.studio.game")
        #expect(configuration.allowedEnvironments == [.production, .sandbox])
        #expect(configuration.catalog.product("gems10")?.grants == ["gems": 10])
        #expect(configuration.webhook?.timeoutSeconds == 10)
        #expect(configuration.deploymentEnvironment == .production)
        #expect(configuration.maximumBodyBytes == 1 << 20)
        #expect(configuration.verifyReceipt.mode == .off)
    }

    @Test("environment variables override the file; bad ones are errors")
    func environment() throws {
        let configuration = try ServerConfiguration().applyingEnvironment([
            "STOREKEEPER_BUNDLE_ID": "com.env.game",
            "STOREKEEPER_APP_APPLE_ID": "42",
            "STOREKEEPER_ALLOWED_ENVIRONMENTS": "Production, Sandbox",
            "STOREKEEPER_PLAYER_TOKEN_SECRET": "player-secret-from-env",
            "STOREKEEPER_ADMIN_KEY": "admin-key-from-env",
            "STOREKEEPER_WEBHOOK_URL": "https://game.example/hook",
            "STOREKEEPER_WEBHOOK_SECRET": "whsec-env",
            "STOREKEEPER_APPLE_API_ISSUER_ID": "issuer",
            "STOREKEEPER_APPLE_API_KEY_ID": "KEY123",
            "STOREKEEPER_APPLE_API_KEY_FILE": "/secrets/AuthKey.p8",
        ])
        #expect(configuration.bundleId == "com.env.game")
        #expect(configuration.appAppleId == 42)
        #expect(configuration.allowedEnvironments == [.production, .sandbox])
        #expect(configuration.playerTokenSecret == "player-secret-from-env")
        #expect(configuration.webhook?.url.absoluteString == "https://game.example/hook")
        #expect(configuration.webhook?.secret == "whsec-env")
        #expect(configuration.appStoreServerAPI?.keyId == "KEY123")
        #expect(configuration.appStoreServerAPI?.privateKeyFile == "/secrets/AuthKey.p8")
        #expect(configuration.appStoreServerAPI?.baseURL.absoluteString == "https://api.storekit.apple.com")
        #expect(configuration.validationProblems().isEmpty)
        #expect(!configuration.description.contains("player-secret-from-env"))
        #expect(!configuration.description.contains("admin-key-from-env"))

        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration().applyingEnvironment(["STOREKEEPER_APP_APPLE_ID": "forty-two"])
        }
    }

    @Test("missing secrets, bad grants and half-configured features are reported")
    func validation() {
        var configuration = ServerConfiguration()
        configuration.catalog.products.append(
            CatalogProduct(productId: "coins100", type: .consumable, grants: ["coins": -1]))
        configuration.answerConsumptionRequests = true
        configuration.webhook = WebhookSettings(url: URL(string: "https://game.example/hook")!, secret: nil)
        let problems = configuration.validationProblems().joined(separator: "\n")
        #expect(problems.contains("playerTokenSecret"))
        #expect(problems.contains("adminKey"))
        #expect(problems.contains("listed twice"))
        #expect(problems.contains("amounts must be positive"))
        #expect(problems.contains("answerConsumptionRequests needs appStoreServerAPI"))
        #expect(problems.contains("needs a secret"))
    }

    @Test("numbers that would trap later (NaN, infinities, out of range) are refused at start")
    func numericBounds() throws {
        for value in [Double.nan, .infinity, -1, 1e300] {
            var configuration = ServerConfiguration(playerTokenSecret: "0123456789abcdef", adminKey: "0123456789abcdef")
            configuration.orderLifetimeSeconds = value
            configuration.reconcilerIntervalSeconds = value
            configuration.reconcilerLookbackSeconds = value
            configuration.reconcilerOverlapSeconds = value
            configuration.webhook = WebhookSettings(
                url: try #require(URL(string: "https://game.example/hook")), secret: "s", timeoutSeconds: value)
            let problems = configuration.validationProblems().joined(separator: "\n")
            for key in [
                "orderLifetimeSeconds", "reconcilerIntervalSeconds", "reconcilerLookbackSeconds",
                "reconcilerOverlapSeconds", "timeoutSeconds",
            ] {
                #expect(problems.contains(key), "\(key) = \(value)")
            }
        }
        var configuration = ServerConfiguration(playerTokenSecret: "0123456789abcdef", adminKey: "0123456789abcdef")
        configuration.clientEventsPerPlayer = 0
        configuration.maximumBodyBytes = Int.max
        let problems = configuration.validationProblems().joined(separator: "\n")
        #expect(problems.contains("clientEventsPerPlayer"))
        #expect(problems.contains("maximumBodyBytes"))
    }

    @Test("a quantity outside 1 to 10, or one whose grants overflow, grants nothing")
    func quantities() {
        let coins = CatalogProduct(productId: "coins", type: .consumable, grants: ["coins": 100])
        #expect(coins.grants(quantity: 10) == ["coins": 1_000])
        for quantity in [0, -1, 11, Int.max, Int.min] {
            #expect(coins.grants(quantity: quantity) == nil, "\(quantity)")
        }
        let huge = CatalogProduct(productId: "huge", type: .consumable, grants: ["coins": Int64.max / 2])
        #expect(huge.grants(quantity: 3) == nil)
    }
}
