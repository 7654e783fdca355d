import Hummingbird

/// Answers 405 Method Not Allowed, with the `Allow` header RFC 9110 requires, when the
/// router has no route for a request whose path it serves with other methods. Hummingbird
/// itself answers 404 there.
///
/// Self-contained (Hummingbird only), so any Hummingbird 2 application can use it. Add it
/// to the router after the routes it covers:
///
/// ```swift
/// router.add(middleware: MethodNotAllowedMiddleware(table: RouteMethodTable(routes: router.routes)) { _, allowed in
///     myErrorResponse("method_not_allowed", "use \(allowed)")
/// })
/// ```
///
/// A router applies a middleware to the routes added after it and to its not-found
/// responder, so added last it only sees requests no route took. It acts on the router's
/// `HTTPError(.notFound)`, and only when the path matches a route of its table and the
/// method is not one of that route's; everything else passes through unchanged.
public struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The routes whose methods the `Allow` header lists.
    public let table: RouteMethodTable
    /// The answer's body and content type; the middleware sets its status and `Allow`.
    public let answer: @Sendable (_ request: Request, _ allowed: [HTTPRequest.Method]) -> Response

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - table: the routes it covers, e.g. `RouteMethodTable(routes: router.routes)`.
    ///   - answer: builds the 405 answer (body, content type) from the request and the
    ///     methods its path allows; the status and `Allow` header are set afterwards.
    public init(
        table: RouteMethodTable,
        answer: @escaping @Sendable (_ request: Request, _ allowed: [HTTPRequest.Method]) -> Response
    ) {
        self.table = table
        self.answer = answer
    }

    /// Passes the request on; turns the router's 404 for a served path into a 405.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = table.methods(forPath: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            var response = answer(request, allowed)
            response.status = .methodNotAllowed
            response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
            if request.method == .head { response.body = ResponseBody() }
            return response
        }
    }
}
