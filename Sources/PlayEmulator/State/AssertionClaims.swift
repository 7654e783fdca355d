/// The claims of a service account's OAuth 2.0 JWT bearer assertion (RFC 7523), as
/// Google's token endpoint reads them. Each is optional so a missing one gets its own
/// `invalid_grant` description instead of a decoding failure.
struct AssertionClaims: Decodable {
    var iss: String?
    var scope: String?
    var aud: String?
    var iat: Double?
    var exp: Double?
}
