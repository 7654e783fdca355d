import HTTPTypes
import Hummingbird

/// Puts the console's security headers on every answer: a strict Content-Security-Policy
/// (nothing inline, nothing from elsewhere, no framing), `nosniff`, a same-origin referrer,
/// a Permissions-Policy that allows no powerful feature, and `Cache-Control: no-store`
/// unless the answer says otherwise (static files).
struct ConsoleHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The Content-Security-Policy of every console answer.
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            + "frame-ancestors 'none'; form-action 'self'"
    }

    /// The Permissions-Policy of every console answer: no page may use a camera, a
    /// microphone, the location, payments, sensors or devices, nor let a frame use them.
    static var permissionsPolicy: String {
        "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
            + "payment=(), usb=(), serial=(), hid=(), bluetooth=(), midi=(), display-capture=()"
    }

    private static var referrerPolicy: HTTPField.Name { HTTPField.Name("Referrer-Policy")! }
    private static var permissionsPolicyField: HTTPField.Name { HTTPField.Name("Permissions-Policy")! }

    /// Adds the headers to `response`.
    static func apply(to response: inout Response) {
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[referrerPolicy] = "same-origin"
        response.headers[permissionsPolicyField] = permissionsPolicy
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
