import HTTPTypes
import Hummingbird

/// Puts the console's security headers on every answer: a strict Content-Security-Policy
/// (nothing inline, nothing from elsewhere, no framing), `nosniff`, a same-origin referrer,
/// and `Cache-Control: no-store` unless the answer says otherwise (static files).
struct ConsoleHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The Content-Security-Policy of every console answer.
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            + "frame-ancestors 'none'; form-action 'self'"
    }

    private static var referrerPolicy: HTTPField.Name { HTTPField.Name("Referrer-Policy")! }

    /// Adds the headers to `response`.
    static func apply(to response: inout Response) {
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[referrerPolicy] = "same-origin"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        Self.apply(to: &response)
        return response
    }
}
