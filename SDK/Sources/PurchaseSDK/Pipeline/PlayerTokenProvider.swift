/// Gives the player's current token for the purchase server (`Authorization: Bearer`).
/// The pipeline asks for the token of the player who ordered, not of whoever is signed in
/// now, so an account switch between paying and reporting still delivers to the orderer.
public typealias PlayerTokenProvider = @Sendable (_ playerId: String) async throws -> String
