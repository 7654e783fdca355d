/// `GET /healthz`: whether the server and its database answer and take writes, and whether the server
/// trusts roots besides Apple's (a staging deployment's ``ServerConfiguration/additionalRoots``).
struct HealthBody: Codable, Hashable, Sendable {
    /// `ok`, or `degraded` when the database does not answer or takes no writes.
    var status: String
    /// `ok` (reads and writes succeed), `unavailable` (it does not answer a read) or
    /// `not_writable` (it answers reads, but a write failed: a full disk, a read-only file).
    var database: String
    /// `true` when signed data chaining to a root other than Apple's is accepted; absent
    /// otherwise (a production server's answer is just `status` and `database`).
    var trustsAdditionalRoots: Bool?
    /// The subjects of those roots; absent when there are none.
    var additionalRoots: [String]?
    /// Why this must not be a production deployment; absent when only Apple's roots are trusted.
    var warning: String?

    /// The health answer of a server whose database answers reads (`databaseAnswers`) and
    /// takes writes (`writable`), and that trusts `additionalRoots` (subjects) besides Apple's.
    init(databaseAnswers: Bool, writable: Bool, additionalRoots: [String]) {
        status = databaseAnswers && writable ? "ok" : "degraded"
        database = !databaseAnswers ? "unavailable" : writable ? "ok" : "not_writable"
        trustsAdditionalRoots = additionalRoots.isEmpty ? nil : true
        self.additionalRoots = additionalRoots.isEmpty ? nil : additionalRoots
        warning =
            additionalRoots.isEmpty
            ? nil : "trusts roots besides Apple's (additionalRoots): a staging deployment, never production"
    }
}
