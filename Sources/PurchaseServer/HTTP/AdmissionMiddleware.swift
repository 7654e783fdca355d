import Hummingbird

/// Sheds the requests beyond the bound on requests in flight: a request that finds the
/// ``AdmissionGate`` full is answered at once with 503 `overloaded` and `Retry-After`,
/// before its body is read or anything of it is done, so nothing of it is half-done or
/// acknowledged; the client retries it later (the SDK waits the `Retry-After`).
struct AdmissionMiddleware<Context: RequestContext>: RouterMiddleware {
    let gate: AdmissionGate
    /// The `Retry-After` of a shed request, in seconds.
    let retryAfterSeconds: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard gate.enter() else { throw ServerError.overloaded(retryAfterSeconds: retryAfterSeconds) }
        defer { gate.leave() }
        return try await next(request, context)
    }
}
