/// An error thrown while loading an App Store Server API key or making a token with it.
public enum AppStoreServerAPIKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The private key text is not a P-256 key in PEM (PKCS#8 `PRIVATE KEY`, as in
    /// Apple's `.p8` files, or SEC1 `EC PRIVATE KEY`); the reason is the parser's message.
    case invalidPrivateKey(String)
    /// The requested token lifetime is not in (0, 3600] seconds, the range Apple accepts.
    case invalidLifetime(Double)
    /// The token header or claims could not be encoded, or the key failed to sign.
    case signingFailed(String)

    /// A human-readable explanation of the error.
    public var description: String {
        switch self {
        case .invalidPrivateKey(let reason):
            return "Invalid App Store Server API private key: \(reason)"
        case .invalidLifetime(let lifetime):
            return "A token lifetime of \(lifetime) s is outside (0, 3600] s."
        case .signingFailed(let reason):
            return "Could not sign the App Store Server API token: \(reason)"
        }
    }
}
