import Hummingbird

/// Answers the requests a router has no route for, instead of Hummingbird's empty 404:
/// 405 Method Not Allowed, with the `Allow` header RFC 9110 requires, when the path is
/// served with other methods; and, for the paths the application claims, a 404 in the
/// application's own error shape.
///
/// Self-contained (Hummingbird only), so any Hummingbird 2 application can use it. Add it
/// to the router after the routes it covers:
///
/// ```swift
/// router.add(middleware: UnmatchedRequestMiddleware(
///     table: RouteMethodTable(routes: router.routes),
///     methodNotAllowed: { _, allowed in myErrorResponse("method_not_allowed", "use \(allowed)") },
///     unknownPath: { request in request.uri.path.hasPrefix("/api/") ? myErrorResponse("unknown_path") : nil }))
/// ```
///
/// A router applies a middleware to the routes added after it and to its not-found
/// responder, so added last it only sees requests no route took. It acts on the router's
/// `HTTPError(.notFound)` only; a handler's own answers pass through unchanged, and so
/// does a 404 for a path `unknownPath` does not claim (another application sharing the
/// router answers it).
public struct UnmatchedRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The routes whose methods the `Allow` header lists.
    public let table: RouteMethodTable
    /// The 405 answer's body and content type; the middleware sets its status and `Allow`.
    public let methodNotAllowed: @Sendable (_ request: Request, _ allowed: [HTTPRequest.Method]) -> Response
    /// The 404 answer for a path no route serves, or `nil` to leave it to the router.
    public let unknownPath: @Sendable (_ request: Request) -> Response?

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - table: the routes it covers, e.g. `RouteMethodTable(routes: router.routes)`.
    ///   - methodNotAllowed: builds the 405 answer (body, content type) from the request and
    ///     the methods its path allows; the status and `Allow` header are set afterwards.
    ///   - unknownPath: builds the 404 answer for a path of the application no route
    ///     serves; `nil` (the default) passes the router's 404 on.
    public init(
        table: RouteMethodTable,
        methodNotAllowed: @escaping @Sendable (_ request: Request, _ allowed: [HTTPRequest.Method]) -> Response,
        unknownPath: @escaping @Sendable (_ request: Request) -> Response? = { _ in nil }
    ) {
        self.table = table
        self.methodNotAllowed = methodNotAllowed
        self.unknownPath = unknownPath
    }

    /// Passes the request on; turns the router's 404 into a 405 for a served path, or into
    /// the application's 404 for a path it claims.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = table.methods(forPath: request.uri.path)
            if !allowed.isEmpty, !allowed.contains(request.method) {
                var response = methodNotAllowed(request, allowed)
                response.status = .methodNotAllowed
                response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
                if request.method == .head { response.body = ResponseBody() }
                return response
            }
            guard allowed.isEmpty, var response = unknownPath(request) else { throw error }
            response.status = .notFound
            return response
        }
    }
}
