import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``NetworkTransport`` on `URLSession`.
///
/// Every request has a deadline of its own besides `URLRequest.timeoutInterval`: on Linux,
/// FoundationNetworking's timeout does not always fire, and a request that never returns
/// would stall a paid order's retries.
public struct URLSessionTransport: NetworkTransport {
    private let session: URLSession
    private let timeout: TimeInterval
    /// The transport's own deadline, a second after `timeout`; `nil` when that is not a
    /// number of milliseconds `Int64` holds.
    private let deadline: Duration?

    /// Creates a transport whose requests give up after `timeout` seconds. A `timeout` of
    /// NaN or of more than `Int64.max` milliseconds (infinity included) sets no deadline of
    /// the transport's own: only `URLSession` decides when a request times out.
    public init(session: URLSession = .shared, timeout: TimeInterval = 15) {
        self.session = session
        self.timeout = timeout
        deadline = Int64(exactly: ((timeout + 1) * 1_000).rounded(.towardZero)).map { .milliseconds($0) }
    }

    public func send(_ request: NetworkRequest) async throws -> NetworkResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let (data, response) = try await withDeadline(deadline) { [session, urlRequest] in
            try await session.data(for: urlRequest)
        }
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
        return NetworkResponse(status: http.statusCode, body: data, headers: headers)
    }

    /// `operation`'s result, or `URLError(.timedOut)` after `deadline` without waiting for
    /// an operation that ignores cancellation; with no deadline, `operation`'s result.
    private func withDeadline<Value: Sendable>(
        _ deadline: Duration?, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard let deadline else { return try await operation() }
        return try await withCheckedThrowingContinuation { continuation in
            let outcome = FirstOutcome(continuation)
            let work = Task {
                do {
                    outcome.resume(with: .success(try await operation()))
                } catch {
                    outcome.resume(with: .failure(error))
                }
            }
            let timer = Task {
                try await Task.sleep(for: deadline)
                work.cancel()
                outcome.resume(with: .failure(URLError(.timedOut)))
            }
            Task {
                _ = await work.result
                timer.cancel()
            }
        }
    }
}

/// Resumes a continuation with the first result offered and ignores the rest.
///
/// `@unchecked Sendable`: `continuation` is read and cleared only under `lock`, so it is
/// resumed exactly once whichever thread offers first.
private final class FirstOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = continuation
    }

    func resume(with result: Result<Value, any Error>) {
        let pending = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(with: result)
    }
}
