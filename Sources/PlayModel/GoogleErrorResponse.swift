/// Google's JSON error envelope, as Google APIs answer a failed request:
/// `{"error": {"code": 404, "message": …, "status": "NOT_FOUND", "errors": [{"domain", "reason", "message"}]}}`.
public struct GoogleErrorResponse: Codable, Hashable, Sendable, Error {
    /// The error.
    public var error: GoogleError

    /// Wraps `error`.
    public init(error: GoogleError) {
        self.error = error
    }
}

/// The `error` object of ``GoogleErrorResponse``.
public struct GoogleError: Codable, Hashable, Sendable {
    /// The HTTP status code.
    public var code: Int
    /// What went wrong, for a person.
    public var message: String
    /// The canonical status name (`UNAUTHENTICATED`, `NOT_FOUND`, `INVALID_ARGUMENT`, …).
    public var status: String?
    /// The legacy per-error details.
    public var errors: [GoogleErrorDetail]?

    /// Creates an error.
    public init(code: Int, message: String, status: String? = nil, errors: [GoogleErrorDetail]? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.errors = errors
    }
}

/// One entry of ``GoogleError/errors``.
public struct GoogleErrorDetail: Codable, Hashable, Sendable {
    /// The error's domain: `global`, `androidpublisher`, ….
    public var domain: String
    /// A stable reason: `required`, `authError`, `invalidPurchaseState`, ….
    public var reason: String
    /// What went wrong, for a person.
    public var message: String
    /// Where in the request the problem is (`Authorization`, `token`), when Google says.
    public var location: String?
    /// The kind of ``location``: `header`, `parameter`.
    public var locationType: String?

    /// Creates a detail.
    public init(domain: String, reason: String, message: String, location: String? = nil, locationType: String? = nil) {
        self.domain = domain
        self.reason = reason
        self.message = message
        self.location = location
        self.locationType = locationType
    }
}
