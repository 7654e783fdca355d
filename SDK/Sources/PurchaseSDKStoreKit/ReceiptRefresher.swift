import Foundation
import StoreKit

/// One `SKReceiptRefreshRequest`, awaited: it keeps the request and itself (the request's
/// delegate is weak) alive until StoreKit answers.
///
/// `@unchecked Sendable` is safe: `continuation` and `request` are set once in `refresh()`
/// before the request starts and read only in the delegate callbacks, which StoreKit calls
/// once, after `start()`, on the main queue; `lock` orders the two.
final class ReceiptRefresher: NSObject, SKRequestDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, any Error>?
    private var request: SKReceiptRefreshRequest?

    /// Asks the App Store for a new app receipt and waits for it.
    static func refresh() async throws {
        try await ReceiptRefresher().refresh()
    }

    private func refresh() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let request = SKReceiptRefreshRequest()
            request.delegate = self
            lock.withLock {
                self.continuation = continuation
                self.request = request
            }
            request.start()
        }
    }

    func requestDidFinish(_ request: SKRequest) {
        take()?.resume()
    }

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        take()?.resume(throwing: error)
    }

    /// The waiting continuation, once; releases the request.
    private func take() -> CheckedContinuation<Void, any Error>? {
        lock.withLock {
            defer {
                continuation = nil
                request = nil
            }
            return continuation
        }
    }
}
