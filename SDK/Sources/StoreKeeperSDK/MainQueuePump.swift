import Foundation

/// Serves the main dispatch queue from `sk_poll`, `sk_wait` and `sk_close` when the host
/// calls them on its main thread, on Linux.
///
/// StoreKit 1 tells its payment queue's observers on the main queue (as Apple's does, and
/// StoreKit for Linux the same), and the StoreKit 1 adapter reads the queue on the main
/// actor. An app's main run loop serves that queue; a game host's main thread runs its own
/// loop instead and, without this, would never run them: purchases with `store`
/// `storekit1` would never settle. Apple's engines run the main run loop themselves, so
/// elsewhere this only waits.
enum MainQueuePump {
    /// How long one wait lasts before the main queue is served again.
    static let slice: TimeInterval = 0.01

    /// Whether the calling thread must serve the main queue while it waits.
    static var servesMainQueue: Bool {
        #if os(Linux)
            Thread.isMainThread
        #else
            false
        #endif
    }

    /// Runs the main queue's work that is due, without waiting.
    static func serve() {
        _ = RunLoop.main.run(mode: .default, before: Date())
    }

    /// `queue`'s oldest event, waiting up to `timeout` and serving the main queue meanwhile
    /// when called on the main thread.
    static func take(from queue: EventQueue, timeout: TimeInterval) -> String? {
        guard servesMainQueue else { return queue.take(timeout: timeout) }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            serve()
            let remaining = deadline.timeIntervalSinceNow
            if let event = queue.take(timeout: max(0, min(remaining, slice))) { return event }
            if queue.isClosed || deadline.timeIntervalSinceNow <= 0 { return nil }
        }
    }

    /// Waits for `done`, serving the main queue meanwhile when called on the main thread.
    static func wait(for done: DispatchSemaphore) {
        guard servesMainQueue else {
            done.wait()
            return
        }
        while done.wait(timeout: .now() + slice) == .timedOut { serve() }
    }
}
