import ArgumentParser
import Foundation
import PurchaseServer

/// `storekeeper token`: a player token, as the game's login server would issue one.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print an HS256 player token (for curl, load tests and --dev)."
    )

    @Option(help: "The player id (the token's sub).")
    var player: String

    @Option(help: "The shared secret; STOREKEEPER_PLAYER_TOKEN_SECRET, else dev-player-secret.")
    var secret: String?

    /// `.unconditional`: a negative lifetime (`--lifetime -60`, an expired token for tests)
    /// is a value, not an option.
    @Option(parsing: .unconditional, help: "Lifetime in seconds (7 days, as serve --dev's token; negative: expired).")
    var lifetime: Double = PlayerTokenVerifier.developmentLifetime

    func validate() throws {
        // A negative lifetime is allowed: it makes an expired token, for tests.
        guard lifetime.isFinite else { throw ValidationError("--lifetime must be a number of seconds") }
        // The server refuses a token whose player id is not an identifier: do not print one.
        if let problem = PlayerTokenVerifier.problem(withPlayerId: player) {
            throw ValidationError("--player is not a player id: \(problem)")
        }
    }

    func run() async throws {
        let secret =
            secret ?? ProcessInfo.processInfo.environment["STOREKEEPER_PLAYER_TOKEN_SECRET"] ?? "dev-player-secret"
        print(PlayerTokenVerifier.issue(playerId: player, secret: secret, lifetime: lifetime))
    }
}
