import Foundation
import Hummingbird
import Ledger
import Logging
import PurchaseServer

/// The console's shared machinery, the same for every route: the server and ledger it
/// works on, its settings, the renderer and static files, and how sessions, cookies and
/// answers are made.
struct ConsoleCore: Sendable {
    /// The session cookie (a random token; the ledger keeps its digest).
    static let sessionCookie = "sk_session"
    /// The double-submit cookie of the sign-in form.
    static let signInCookie = "sk_signin"

    let server: PurchaseServer
    let store: any LedgerStore
    let settings: ConsoleSettings
    let secureCookies: Bool
    let logger: Logger
    let renderer: ConsoleRenderer
    let staticFiles: [String: Data]
    /// The password checks that may run at once (see ``PasswordCheckSlots``).
    let passwordChecks: PasswordCheckSlots

    // MARK: Requests

    /// The client's address: the connection's peer when the context knows it, else `unknown`.
    func address(of context: some RequestContext) -> String {
        guard let remote = (context as? any RemoteAddressRequestContext)?.remoteAddress else { return "unknown" }
        return remote.ipAddress ?? "unknown"
    }

    /// The valid session `request` carries (marked used now), or `nil`.
    func session(of request: Request) async throws -> StaffSession? {
        guard let token = request.cookies[Self.sessionCookie]?.value, ConsoleTokens.isWellFormed(token) else {
            return nil
        }
        return try await store.useStaffSession(
            tokenDigest: ConsoleTokens.digest(token), idleTimeout: settings.idleTimeoutSeconds)
    }

    /// Whether a change may come from where `request` says it comes from: no `Origin`
    /// header (older browsers, tools), or one naming this host.
    func originAllowed(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        guard let url = URL(string: origin), let scheme = url.scheme, let host = url.host,
            let authority = request.head.authority
        else { return false }
        guard scheme == "http" || scheme == "https" else { return false }
        let port = url.port.map { ":\($0)" } ?? ""
        return (host + port).lowercased() == authority.lowercased()
    }

    // MARK: Cookies

    /// A console cookie: HttpOnly, SameSite=Strict, Path=/console, Secure when configured.
    func cookie(_ name: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: maxAge, path: "/console", secure: secureCookies, httpOnly: true,
            sameSite: .strict)
    }

    /// A cookie that removes `name` from the browser.
    func expiredCookie(_ name: String) -> Cookie {
        cookie(name, "", maxAge: 0)
    }

    // MARK: Answers

    /// The chrome of a page answering `request`.
    func chrome(_ request: Request, language: ConsoleLanguage, session: StaffSession?, csrf: String) -> ConsoleChrome {
        let notice = request.uri.queryParameters["notice"].map(String.init).flatMap {
            $0.count <= 40 && $0.allSatisfy { $0.isASCII && ($0.isLowercase || $0 == "_") } ? $0 : nil
        }
        return ConsoleChrome(
            language: language, session: session, csrf: csrf, location: ConsoleURL.location(of: request),
            notice: notice)
    }

    /// `page` as an HTML answer, with `Retry-After` when its error says when to try again.
    func respond(_ page: ConsolePage, chrome: ConsoleChrome) -> Response {
        let html = renderer.render(page, chrome: chrome)
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        if let seconds = page.error?.retryAfter { headers[.retryAfter] = String(seconds) }
        return Response(status: page.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// The error page of `error`.
    func respond(_ error: ConsoleError, chrome: ConsoleChrome) -> Response {
        var page = ConsolePage(template: "error", titleKey: "title_error", status: error.status)
        page.error = error
        return respond(page, chrome: chrome)
    }

    /// A 303 to `location`.
    func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// The error page for anything a handler threw: a ``ConsoleError`` as it says,
    /// anything else logged and answered: the ledger's errors (a full disk, an unreachable
    /// database) `storage_unavailable` (503 with `Retry-After`), others `unexpected` (500).
    func respond(thrown error: any Error, chrome: ConsoleChrome) -> Response {
        if let error = error as? ConsoleError { return respond(error, chrome: chrome) }
        logger.error("console request failed", metadata: ["path": "\(chrome.location)", "error": "\(error)"])
        if error is LedgerError {
            return respond(
                ConsoleError(
                    code: "storage_unavailable", status: .serviceUnavailable, retryAfter: StorageFault.retryAfterSeconds
                ),
                chrome: chrome)
        }
        return respond(ConsoleError(code: "unexpected", status: .internalServerError), chrome: chrome)
    }

    /// `/console/sign-in?next=<location>`.
    func signInRedirect(from request: Request) -> Response {
        redirect(to: "/console/sign-in?next=" + ConsoleURL.queryValue(ConsoleURL.location(of: request)))
    }
}
