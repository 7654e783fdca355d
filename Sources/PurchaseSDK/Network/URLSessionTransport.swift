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

    /// Creates a transport whose requests give up after `timeout` seconds.
    public init(session: URLSession = .shared, timeout: TimeInterval = 15) {
        self.session = session
        self.timeout = timeout
    }

    public func send(_ request: NetworkRequest) async throws -> NetworkResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let (data, response) = try await withDeadline(after: timeout + 1) { [session, urlRequest] in
            try await session.data(for: urlRequest)
        }
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return NetworkResponse(status: http.statusCode, body: data)
    }

    /// `operation`'s result, or `URLError(.timedOut)` after `seconds` without waiting for
    /// an operation that ignores cancellation.
    private func withDeadline<Value: Sendable>(
        after seconds: TimeInterval, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = FirstOutcome(continuation)
            let work = Task {
                do {
                    outcome.resume(with: .success(try await operation()))
                } catch {
                    outcome.resume(with: .failure(error))
                }
            }
            let deadline = Task {
                try await Task.sleep(for: .milliseconds(Int(seconds * 1_000)))
                work.cancel()
                outcome.resume(with: .failure(URLError(.timedOut)))
            }
            Task {
                _ = await work.result
                deadline.cancel()
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
