import Foundation
import PlayModel
import PlaySigning

extension PlayEmulator {
    /// The push OIDC token's issuer, Google's.
    public static let pushTokenIssuer = "https://accounts.google.com"
    /// The push subscription's service account when none is configured.
    public static let defaultPushServiceAccountEmail = "storekeeper-push@storekeeper-emulator.iam.gserviceaccount.com"
    /// The push service account's unique id (the OIDC token's `sub`).
    public static let pushServiceAccountId = "100000000000000000002"
    /// Seconds a push's OIDC token lives, as Google's.
    public static let pushTokenLifetime: Int64 = 3600

    /// The headers of a push to `url`: `Authorization: Bearer` an OIDC token signed now with
    /// the emulator's push key for the configured audience (`url` by default) and service
    /// account. Signed afresh for each attempt, as Pub/Sub does; empty when the key cannot be
    /// had, and the endpoint refuses the push as unauthenticated.
    public func pushHeaders(for url: URL, at time: Date = Date()) -> [String: String] {
        let configuration = pushConfiguration
        let issued = Int64(time.timeIntervalSince1970)
        let claims = PubSubPushTokenClaims(
            iss: Self.pushTokenIssuer, aud: configuration.audience ?? url.absoluteString,
            email: configuration.serviceAccountEmail ?? Self.defaultPushServiceAccountEmail, emailVerified: true,
            sub: Self.pushServiceAccountId, azp: Self.pushServiceAccountId, iat: issued,
            exp: issued + Self.pushTokenLifetime)
        guard let key = try? pushSigningKey.get(),
            let token = try? RS256JWT.sign(claims, with: key, keyId: keyId(of: key))
        else { return [:] }
        return ["Authorization": "Bearer " + token]
    }

    /// The push key's public half as a JSON Web Key Set, as Google publishes its own at
    /// `https://www.googleapis.com/oauth2/v3/certs`; served at `GET /emulator/v1/play/certs`.
    ///
    /// - Throws: The key's generation or loading error.
    public func pushKeySet() throws -> JSONWebKeySet {
        let key = try pushSigningKey.get()
        return JSONWebKeySet(keys: [try JSONWebKey(publicKey: key.publicKey, kid: keyId(of: key))])
    }
}
