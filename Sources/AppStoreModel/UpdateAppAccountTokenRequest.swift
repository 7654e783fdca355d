/// The body of Set App Account Token
/// (`PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`, App Store Server
/// API 1.17): the UUID to bind a purchase to, or an empty string to remove the binding.
public struct UpdateAppAccountTokenRequest: Hashable, Codable, Sendable {
    /// A UUID, lowercase as Apple signs it; an empty string removes the token.
    public var appAccountToken: String

    /// Creates a request.
    public init(appAccountToken: String) {
        self.appAccountToken = appAccountToken
    }
}
