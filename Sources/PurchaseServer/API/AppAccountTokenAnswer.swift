/// What support's order lookup did about a purchase's `appAccountToken` at Apple (Set App
/// Account Token), in the lookup's answer for that transaction.
struct AppAccountTokenAnswer: Codable, Hashable, Sendable {
    /// The outcome.
    enum Status: String, Codable, Hashable, Sendable {
        /// Apple's transaction now carries the token of the order the purchase is bound to.
        case set
        /// Apple refused or could not be reached; the ledger's binding stands, and
        /// looking the order up again tries again.
        case failed
    }

    var status: Status
    /// The order whose token was (or was to be) set.
    var orderId: String
    /// Apple's `errorCode`, or the failure's kind (`transport_failed`, `http_error`, …),
    /// with `failed`.
    var reason: String?
    /// A sentence for people, with `failed`.
    var message: String?
    /// Whether trying again may succeed, with `failed`.
    var retryable: Bool?
}
