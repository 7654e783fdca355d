/// How much of a request body the server reads, and for how long: the body must arrive
/// whole, at most ``bytes`` of it, within ``seconds`` of the handler asking for it.
struct BodyLimit: Sendable {
    /// ``ServerConfiguration/maximumBodyBytes``.
    var bytes: Int
    /// ``LoadSettings/bodyTimeoutSeconds``.
    var seconds: Double

    /// The limit as a `Duration`.
    var timeout: Duration { .milliseconds(Int64((seconds * 1_000).rounded())) }
}
