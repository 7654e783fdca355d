import Logging
import ServiceLifecycle

/// A background job run every `interval` until graceful shutdown (the reconciler, the
/// outbox worker). A pass that reports more work waiting runs again at once; a failing
/// pass is logged and tried again at the next tick; the job never stops the server.
struct PeriodicWork: Service {
    let name: String
    let interval: Duration
    let logger: Logger
    /// One pass; returns whether more work is waiting.
    let pass: @Sendable () async throws -> Bool

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if try await pass() { continue }
                } catch {
                    logger.warning("\(name) pass failed", metadata: ["error": .string("\(error)")])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
