import HTTPRouting
import Hummingbird

/// The server's answers to requests no route took: 405 `method_not_allowed` with an
/// `Allow` header for a method one of its paths is not served with, and 404 `unknown_path`
/// for a path under `/v1/` it does not serve (distinct from a route's `not_found`), both in the API's JSON error shape.
/// Everything else (another application sharing the router, such as the emulator in
/// `serve --dev`) passes through unchanged.
struct ServerRoutingMiddleware<Context: RequestContext>: RouterMiddleware {
    private let methodNotAllowed: MethodNotAllowedMiddleware<Context>

    /// Creates the middleware for the server's routes.
    ///
    /// - Parameter table: the routes the server added.
    init(table: RouteMethodTable) {
        methodNotAllowed = MethodNotAllowedMiddleware(table: table) { request, allowed in
            let methods = allowed.map(\.rawValue).joined(separator: ", ")
            return APIResponse.json(
                ServerError.ErrorBody(
                    error: "method_not_allowed", message: "\(request.method) is not served here; use \(methods)"),
                status: .methodNotAllowed)
        }
    }

    /// Passes the request on; answers the router's 404 for the server's paths in JSON.
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await methodNotAllowed.handle(request, context: context, next: next)
        } catch let error as HTTPError where error.status == .notFound {
            guard request.uri.path.hasPrefix("/v1/") else { throw error }
            return APIResponse.json(
                ServerError.ErrorBody(error: "unknown_path", message: "the server serves no \(request.method) here"),
                status: .notFound)
        }
    }
}
