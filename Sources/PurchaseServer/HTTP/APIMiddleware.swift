import Hummingbird
import Ledger
import Logging

/// Wraps every request: answers any error that is not already an HTTP answer with a JSON
/// `storage_unavailable` (503 with `Retry-After`, the ledger failed: ``LedgerError``, which
/// holds the storage faults ``StorageFault`` of both databases) or `internal_error` (500)
/// instead of an empty 500, logs it without the request body, and records the route's
/// status and latency.
struct APIMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let logger: Logger
    /// Told of every storage fault, for `/healthz`.
    let writeProbe: LedgerWriteProbe

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            record(context, status: Int(error.status.code), since: start)
            throw error
        } catch {
            if (error as? LedgerError)?.storageFault != nil { writeProbe.recordFailedWrite() }
            let answer =
                error is LedgerError
                ? ServerError.storageUnavailable("the database failed; retry later")
                : ServerError("internal_error", "the server failed; retry later", status: .internalServerError)
            // One line per distinct failure (route, code, error) and interval: the log
            // handler counts repeats (``RepeatedLogLines``, which ignores `path`).
            logger.error(
                "request failed",
                metadata: [
                    "route": .string(context.endpointPath ?? "unmatched"), "code": .string(answer.code),
                    "path": .string(request.uri.path), "error": .string("\(error)"),
                ])
            record(context, status: Int(answer.status.code), since: start)
            return try answer.response(from: request, context: context)
        }
        record(context, status: Int(response.status.code), since: start)
        return response
    }

    private func record(_ context: Context, status: Int, since start: ContinuousClock.Instant) {
        metrics.recordRequest(
            route: context.endpointPath ?? "unmatched", status: status, duration: ContinuousClock.now - start)
    }
}
