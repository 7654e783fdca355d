// `SupportConsole.addRoutes(to:)` builds a `ConsoleRoutes<Context>` for the `/console`
// group; the support pages are registered in `addSupportPages()` (ConsoleRoutes+Pages.swift)
// with `page(_:role:_:)`, `lookup(_:role:_:)` and `action(_:role:_:)`, paths relative to
// /console (e.g. "players/:playerId"); errors are thrown as `ConsoleError(code:status:detail:)`.

import Foundation
import Hummingbird
import Ledger
import PurchaseServer

/// The console's routes on a router group for `/console`: registration of pages (GET) and
/// actions (POST) that checks the session, the role and the CSRF token before the handler
/// runs, and renders what it answers.
struct ConsoleRoutes<Context: RequestContext> {
    /// The `/console` group.
    let group: RouterGroup<Context>
    /// The shared machinery.
    let core: ConsoleCore

    /// The purchase server the console works on.
    var server: PurchaseServer { core.server }
    /// Its ledger (with ``StaffStore`` and ``SupportReads``).
    var store: any LedgerStore { core.store }
    /// The console's settings (grant limits, owed age, …).
    var settings: ConsoleSettings { core.settings }

    /// Registers a page: `GET /console/<path>` for `role` and above. Without a valid
    /// session the browser is sent to the sign-in page (and back afterwards); a lower role
    /// gets the 403 `forbidden` page; a thrown ``ConsoleError`` renders the error page.
    func page(
        _ path: RouterPath, role: StaffRole,
        _ handler: @escaping @Sendable (Request, Context, ConsoleCaller) async throws -> ConsolePage
    ) {
        lookup(path, role: role) { request, context, caller in .page(try await handler(request, context, caller)) }
    }

    /// Registers an action: `POST /console/<path>` for `role` and above. Refused before the
    /// handler runs: without a valid session (403 `session_required`), from another origin
    /// or without the session's CSRF token in the form's `csrf` field (403 `csrf_failed`),
    /// with a body over 64 KiB (413), or for a lower role (403 `forbidden`, audited as
    /// `action_forbidden`).
    func action(
        _ path: RouterPath, role: StaffRole,
        _ handler: @escaping @Sendable (Request, Context, ConsoleCaller, ConsoleForm) async throws -> ConsoleOutcome
    ) {
        let core = core
        group.post(path) { request, context -> Response in
            let language = ConsoleLanguage.of(request)
            var chrome = core.chrome(request, language: language, session: nil, csrf: "")
            do {
                guard let session = try await core.session(of: request) else {
                    return core.respond(ConsoleError(code: "session_required", status: .forbidden), chrome: chrome)
                }
                chrome = core.chrome(request, language: language, session: session, csrf: session.csrfToken)
                guard core.originAllowed(request) else { return core.respond(ConsoleError.csrfFailed, chrome: chrome) }
                let form = try await ConsoleForm.read(request)
                guard ConsoleTokens.matches(form["csrf"], session.csrfToken) else {
                    return core.respond(ConsoleError.csrfFailed, chrome: chrome)
                }
                let caller = ConsoleCaller(
                    session: session, language: language, address: core.address(of: context), auditLog: core.store)
                guard session.role >= role else {
                    try await caller.audit(
                        action: "action_forbidden", target: request.uri.path,
                        detail: ["role": session.role.rawValue, "required": role.rawValue])
                    return core.respond(ConsoleError.forbidden, chrome: chrome)
                }
                return core.answer(try await handler(request, context, caller, form), chrome: chrome)
            } catch {
                return core.respond(thrown: error, chrome: chrome)
            }
        }
    }
}
