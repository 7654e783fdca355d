import Foundation
import Hummingbird
import Ledger

extension ConsoleRoutes {
    /// Registers a page that may answer with a redirect instead (the search: one hit goes
    /// straight to its page): `GET /console/<path>` for `role` and above, with the session
    /// handling of ``page(_:role:_:)``.
    func lookup(
        _ path: RouterPath, role: StaffRole,
        _ handler: @escaping @Sendable (Request, Context, ConsoleCaller) async throws -> ConsoleOutcome
    ) {
        let core = core
        group.get(path) { request, context -> Response in
            var chrome = core.chrome(request, language: ConsoleLanguage.of(request), session: nil, csrf: "")
            do {
                guard
                    let caller = try await core.caller(of: request, address: core.address(of: context), chrome: &chrome)
                else { return core.signInRedirect(from: request) }
                if caller.role < role { throw ConsoleError.forbidden }
                return core.answer(try await handler(request, context, caller), chrome: chrome)
            } catch {
                return core.respond(thrown: error, chrome: chrome)
            }
        }
    }
}

extension ConsoleCore {
    /// The caller of a request with a valid session (and `chrome` made for it), or `nil`
    /// without one.
    func caller(of request: Request, address: String, chrome: inout ConsoleChrome) async throws -> ConsoleCaller? {
        guard let session = try await session(of: request) else { return nil }
        chrome.session = session
        chrome.csrf = session.csrfToken
        return ConsoleCaller(session: session, language: chrome.language, address: address, auditLog: store)
    }

    /// The answer of an outcome: the page, or a 303 to a console path with its notice.
    func answer(_ outcome: ConsoleOutcome, chrome: ConsoleChrome) -> Response {
        switch outcome {
        case .page(let page): respond(page, chrome: chrome)
        case .redirect(let location, let notice):
            redirect(to: ConsoleURL.adding(notice: notice, to: ConsoleURL.localPath(location)))
        }
    }
}

extension RequestContext {
    /// The path parameter `name`, percent-decoded (the router hands it over as sent), at
    /// most `maximumBytes` long, not empty and without control characters (no id has them;
    /// PostgreSQL cannot even be asked about a NUL); `not_found` otherwise.
    func consoleParameter(_ name: String, maximumBytes: Int = 256) throws -> String {
        guard let raw = parameters.get(name), let value = raw.removingPercentEncoding,
            (1...maximumBytes).contains(value.utf8.count), !ConsoleText.hasControlCharacters(value)
        else { throw ConsoleError.notFound() }
        return value
    }
}
