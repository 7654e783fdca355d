/// Why a call to the purchase server did not succeed, sorted by what the pipeline does next.
public enum ServerCallError: Error, Hashable, Sendable {
    /// Try again later: no answer (offline, refused, timed out), 5xx, 429, 401 (a fresh
    /// token may help), or `202 pending` (Apple unavailable to the server); `retryAfter`
    /// is how long a 429 or 503 asked the client to wait (`Retry-After`), if it did.
    case retryable(reason: String, retryAfter: Duration? = nil)
    /// Refused for good with the server's stable reason; the server recorded it.
    case rejected(reason: String, message: String)

    /// The stable reason.
    public var reason: String {
        switch self {
        case .retryable(let reason, _), .rejected(let reason, _): reason
        }
    }
}
