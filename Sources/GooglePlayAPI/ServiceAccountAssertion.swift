import Foundation

/// The claims of a service account's OAuth 2.0 JWT bearer assertion (RFC 7523), as Google's
/// token endpoint takes them: `iss` the account's email, `scope`, `aud` the `token_uri`,
/// `iat` and `exp` (at most an hour later).
struct ServiceAccountAssertion: Codable, Sendable {
    var iss: String
    var scope: String
    var aud: String
    var iat: Int64
    var exp: Int64
}
