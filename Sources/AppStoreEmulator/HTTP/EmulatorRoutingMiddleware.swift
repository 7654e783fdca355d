import HTTPRouting
import Hummingbird

/// The emulator's answers to requests no route took, under its own prefixes: 405 with
/// `Allow` for a method its path is not served with, and a JSON 404 for a path it does not
/// serve, each in the error shape of the API the path belongs to. Requests outside the
/// emulator's prefixes (another application sharing the router) pass through unchanged.
struct EmulatorRoutingMiddleware<Context: RequestContext>: RouterMiddleware {
    private let methodNotAllowed: MethodNotAllowedMiddleware<Context>

    /// Creates the middleware for the emulator's routes.
    ///
    /// - Parameter table: the routes the emulator added.
    init(table: RouteMethodTable) {
        methodNotAllowed = MethodNotAllowedMiddleware(table: table) { request, allowed in
            (EmulatorErrorShape(path: request.uri.path) ?? .emulator).response(
                status: .methodNotAllowed,
                code: "method_not_allowed",
                message:
                    "\(request.method) is not served on this path; use \(allowed.map(\.rawValue).joined(separator: ", "))"
            )
        }
    }

    /// Passes the request on; answers the router's 404 in the emulator's shapes.
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await methodNotAllowed.handle(request, context: context, next: next)
        } catch let error as HTTPError where error.status == .notFound {
            guard let shape = EmulatorErrorShape(path: request.uri.path) else { throw error }
            return shape.response(
                status: .notFound, code: "not_found",
                message: "the emulator serves no \(request.method) \(request.uri.path)")
        }
    }
}
