import Foundation
import HTTPRouting
import Hummingbird
import Ledger
import Logging
import PurchaseServer

/// The support console: server-rendered HTML pages under `/console` where support staff
/// sign in, find a player's purchases, deliver what Apple charged and nobody received, and
/// grant compensation, every view and action written to the audit log.
///
/// Mount it beside the purchase server's API with ``addRoutes(to:)``. Sessions, accounts and
/// the audit log live in the ledger, so every instance on one database shares them.
public struct SupportConsole: Sendable {
    let core: ConsoleCore

    /// Creates the console of `server`, loading its templates, strings and static files.
    ///
    /// - Parameters:
    ///   - server: the purchase server whose data the console shows and acts on.
    ///   - store: that server's ledger.
    ///   - settings: sign-in, session and grant settings (usually `server.configuration.console`).
    ///   - secureCookies: whether cookies carry `Secure` (off only for plain HTTP on loopback).
    ///   - logger: where to log (never passwords, tokens or secrets).
    public init(
        server: PurchaseServer, store: any LedgerStore, settings: ConsoleSettings, secureCookies: Bool,
        logger: Logger
    ) throws {
        let resources = try ConsoleResources.bundled()
        core = ConsoleCore(
            server: server, store: store, settings: settings, secureCookies: secureCookies, logger: logger,
            renderer: try ConsoleRenderer(resources: resources), staticFiles: resources.staticFiles,
            passwordChecks: PasswordCheckSlots(limit: 2 * ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Adds every console route under `/console` to `router`, with the security headers on
    /// each answer, and HTML answers for console paths no route serves (404, or 405 with
    /// `Allow`).
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let existing = Set(router.routes.map(\.description))
        let group = router.group("console").add(middleware: ConsoleHeadersMiddleware<Context>())
        let routes = ConsoleRoutes(group: group, core: core)
        routes.addPublicRoutes()
        routes.addSignInRoutes()
        routes.addHomePage()
        routes.addAuditPage()
        routes.addStaffPages()
        routes.addSupportPages()
        let added = router.routes.filter { !existing.contains($0.description) }
        let core = core
        router.add(
            middleware: UnmatchedRequestMiddleware<Context>(
                table: RouteMethodTable(routes: added),
                methodNotAllowed: { request, _ in
                    core.publicError(
                        ConsoleError(code: "method_not_allowed", status: .methodNotAllowed), request: request)
                },
                unknownPath: { request in
                    guard request.uri.path == "/console" || request.uri.path.hasPrefix("/console/") else { return nil }
                    return core.publicError(.notFound(), request: request)
                }))
    }
}

extension ConsoleCore {
    /// An error page for a request whose session is not looked at (no route served it).
    func publicError(_ error: ConsoleError, request: Request) -> Response {
        var response = respond(
            error, chrome: chrome(request, language: ConsoleLanguage.of(request), session: nil, csrf: ""))
        ConsoleHeadersMiddleware<BasicRequestContext>.apply(to: &response)
        return response
    }
}
