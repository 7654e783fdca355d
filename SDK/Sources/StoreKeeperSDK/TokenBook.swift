/// The purchase-server tokens the game gave with `signIn`, per player: the pipeline asks for
/// the token of the player who ordered, who may have signed out since.
actor TokenBook {
    private var tokens: [String: String] = [:]

    /// Keeps `token` for `playerId`, replacing an older one.
    func keep(_ token: String, for playerId: String) {
        tokens[playerId] = token
    }

    /// The token of `playerId`; throws `no_token` when the game never signed them in since
    /// the client opened (the pipeline retries, so signing them in resumes their orders).
    func token(for playerId: String) throws -> String {
        guard let token = tokens[playerId] else {
            throw ABIError(code: "no_token", message: "no token for player \(playerId): sign them in")
        }
        return token
    }
}
