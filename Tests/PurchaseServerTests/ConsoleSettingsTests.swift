import Foundation
import Ledger
import PurchaseServer
import Testing

/// `console` in the configuration: the support console's sign-in rules and grant limits.
@Suite("Console settings")
struct ConsoleSettingsTests {
    @Test("the file sets any key and keeps the defaults of the others; the environment switches the console")
    func configuration() throws {
        let defaults = ServerConfiguration().console
        #expect(defaults.enabled)
        #expect(defaults.secureCookies == nil)
        #expect(defaults.passwordHashCost == 12)
        #expect(defaults.grantLimit(for: .viewer) == 0)
        #expect(defaults.grantLimit(for: .agent) == 1_000)
        #expect(defaults.grantLimit(for: .admin) == nil)

        let file = try JSONDecoder().decode(
            ServerConfiguration.self,
            from: Data(#"{"console": {"agentGrantLimit": 50, "adminGrantLimit": 5000, "lockAfterFailures": 3}}"#.utf8))
        #expect(file.console.grantLimit(for: .agent) == 50)
        #expect(file.console.grantLimit(for: .admin) == 5_000)
        #expect(file.console.lockAfterFailures == 3)
        #expect(file.console.idleTimeoutSeconds == defaults.idleTimeoutSeconds)
        #expect(file.console.owedAfterSeconds == defaults.owedAfterSeconds)

        let environment = try file.applyingEnvironment([
            "STOREKEEPER_CONSOLE_ENABLED": "false", "STOREKEEPER_CONSOLE_SECURE_COOKIES": "true",
        ])
        #expect(environment.console.enabled == false)
        #expect(environment.console.secureCookies == true)
        #expect(throws: ConfigurationError.self) {
            try file.applyingEnvironment(["STOREKEEPER_CONSOLE_ENABLED": "yes"])
        }
        let names = ServerConfiguration.environmentVariables.map(\.name)
        #expect(names.contains("STOREKEEPER_CONSOLE_ENABLED"))
        #expect(names.contains("STOREKEEPER_CONSOLE_SECURE_COOKIES"))
    }

    @Test("settings a console cannot run with stop the server, each with its key named")
    func validation() {
        var configuration = ServerConfiguration(playerTokenSecret: "player-secret-1", adminKey: "admin-key-0001")
        #expect(configuration.validationProblems().isEmpty)
        configuration.console = ConsoleSettings(
            agentGrantLimit: -1, idleTimeoutSeconds: 10, sessionLifetimeSeconds: 5, lockAfterFailures: 0,
            lockSeconds: 0, signInFailuresPerAddress: 0, signInWindowSeconds: 0, owedAfterSeconds: -1,
            passwordHashCost: 3)
        let problems = configuration.validationProblems()
        for key in [
            "agentGrantLimit", "idleTimeoutSeconds", "sessionLifetimeSeconds", "lockAfterFailures", "lockSeconds",
            "signInFailuresPerAddress", "signInWindowSeconds", "owedAfterSeconds", "passwordHashCost",
        ] {
            #expect(problems.contains { $0.contains("console.\(key)") }, "\(key)")
        }
    }
}
