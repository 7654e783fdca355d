import Hummingbird

/// A page to render: the template (its name without `.mustache`), the string key of its
/// title, and the values its template reads.
///
/// Values are plain dictionaries (`[String: any Sendable]`), arrays, strings, numbers and
/// bools; leave a key out rather than storing `nil` (a section on an optional that is `nil`
/// still renders). The layout adds, and page values cannot replace: `t` (the strings),
/// `lang`, `title`, `csrf`, `staff` (`name`, `role`, `roleLabel`), `canAct` (agent or admin),
/// `isAdmin`, `error`, `notice`, `langBack`, `nav`, `body`.
struct ConsolePage: Sendable {
    /// The template's name, without `.mustache`.
    var template: String
    /// The strings key of the page title (e.g. `title_player`).
    var titleKey: String
    /// What the template reads.
    var values: [String: any Sendable]
    /// The HTTP status of the answer.
    var status: HTTPResponse.Status
    /// Shown by the layout as the one `#error[data-code]` element of the page.
    var error: ConsoleError?
    /// A success code shown by the layout as `#notice[data-code]` (its text is the string
    /// `notice_<code>`); a redirect's notice is shown without setting this.
    var notice: String?
    /// Text put after the localized title (a player id, say); escaped.
    var titleDetail: String?

    /// Creates a page.
    init(
        template: String, titleKey: String, values: [String: any Sendable] = [:],
        status: HTTPResponse.Status = .ok
    ) {
        self.template = template
        self.titleKey = titleKey
        self.values = values
        self.status = status
    }
}

/// What an action answers: a page, or a 303 redirect to a console path (under
/// `/console/`) that shows the success `notice` code (`#notice[data-code]`).
enum ConsoleOutcome: Sendable {
    /// Render this page (e.g. a confirmation, or the form again with an error).
    case page(ConsolePage)
    /// 303 to `to` (a path under `/console/`), with `?notice=<code>` appended when given.
    case redirect(to: String, notice: String?)
}

/// A refusal a page or action throws: the console renders the error page with
/// `#error[data-code=<code>]` (its text is the string `error_<code>`, then `detail`).
struct ConsoleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable code (see the contract: `not_found`, `over_limit`, …).
    var code: String
    /// The HTTP status of the error page.
    var status: HTTPResponse.Status
    /// Extra text shown after the localized message (escaped), e.g. who got a purchase.
    var detail: String?
    /// After how many seconds the request may be answered otherwise (`Retry-After`).
    var retryAfter: Int?

    /// Creates an error.
    init(code: String, status: HTTPResponse.Status = .badRequest, detail: String? = nil, retryAfter: Int? = nil) {
        self.code = code
        self.status = status
        self.detail = detail
        self.retryAfter = retryAfter
    }

    var description: String { "\(code) (\(status.code))" + (detail.map { ": \($0)" } ?? "") }

    /// Nothing with this id (404).
    static func notFound(_ detail: String? = nil) -> ConsoleError {
        ConsoleError(code: "not_found", status: .notFound, detail: detail)
    }

    /// The role may not do this (403).
    static let forbidden = ConsoleError(code: "forbidden", status: .forbidden)

    /// The form's CSRF token is missing or wrong, or the request came from another origin (403).
    static let csrfFailed = ConsoleError(code: "csrf_failed", status: .forbidden)

    /// Too many failed sign-ins: try again after `seconds` when given (429).
    static func rateLimited(retryAfter seconds: Int?) -> ConsoleError {
        ConsoleError(code: "rate_limited", status: .tooManyRequests, retryAfter: seconds)
    }
}
