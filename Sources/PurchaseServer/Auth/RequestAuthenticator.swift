import Crypto
import Foundation
import Hummingbird

/// Reads the bearer credential of a request: a player token for player endpoints, the
/// admin key for admin endpoints (a player token is never enough for those).
struct RequestAuthenticator: Sendable {
    let playerTokens: PlayerTokenVerifier
    /// SHA-256 of the admin key: compared in constant time, and the key itself is not kept.
    private let adminKeyDigest: SHA256.Digest

    init(playerTokenSecret: String, adminKey: String) {
        self.playerTokens = PlayerTokenVerifier(secret: playerTokenSecret)
        self.adminKeyDigest = SHA256.hash(data: Data(adminKey.utf8))
    }

    /// The authenticated player's id.
    func player(_ request: Request) throws(ServerError) -> String {
        guard let token = Self.bearer(request) else { throw .missingCredentials("player token") }
        return try playerTokens.playerId(from: token)
    }

    /// Succeeds only for the admin key.
    func requireAdmin(_ request: Request) throws(ServerError) {
        guard let key = Self.bearer(request) else { throw .adminCredentialRequired }
        // Equal-length digests compared with the constant-time `==` of Crypto's digests.
        guard SHA256.hash(data: Data(key.utf8)) == adminKeyDigest else { throw .adminCredentialRequired }
    }

    private static func bearer(_ request: Request) -> String? {
        guard let value = request.headers[.authorization] else { return nil }
        let prefix = "bearer "
        guard value.count > prefix.count, value.prefix(prefix.count).lowercased() == prefix else { return nil }
        let credential = value.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        return credential.isEmpty ? nil : credential
    }
}
