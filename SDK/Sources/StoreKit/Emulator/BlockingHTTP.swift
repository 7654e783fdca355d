import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP exchange that blocks the calling thread until the answer is in.
package enum BlockingHTTP {
    /// The answer's body and status.
    ///
    /// - Throws: `StoreKitError.networkError` when the emulator cannot be reached.
    package static func exchange(_ request: URLRequest) throws -> (Data, Int) {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            outcome.set(data: data, status: (response as? HTTPURLResponse)?.statusCode, error: error)
            done.signal()
        }
        task.resume()
        done.wait()
        let (data, status, error) = outcome.get()
        if let error {
            throw StoreKitError.networkError(error as? URLError ?? URLError(.cannotConnectToHost))
        }
        return (data ?? Data(), status ?? 0)
    }

    /// The completion handler's values, handed from URLSession's thread to the waiting one.
    ///
    /// `@unchecked Sendable` is safe: its stored properties are written and read only
    /// while `lock` is held (and the semaphore orders the one write before the read).
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        private var status: Int?
        private var error: (any Error)?

        func set(data: Data?, status: Int?, error: (any Error)?) {
            lock.lock()
            defer { lock.unlock() }
            (self.data, self.status, self.error) = (data, status, error)
        }

        func get() -> (Data?, Int?, (any Error)?) {
            lock.lock()
            defer { lock.unlock() }
            return (data, status, error)
        }
    }
}

extension EmulatorClient {
    /// Runs blocking emulator calls on a Dispatch thread and resumes when they are done, so
    /// asynchronous StoreKit API never blocks a thread of Swift's cooperative pool.
    package static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
