import Foundation

/// The pipeline's time: when it is, and waiting between retries. Tests inject one that
/// records or shortens the waits.
public protocol PipelineClock: Sendable {
    /// Now.
    var now: Date { get }
    /// Waits `duration`; throws when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real clock.
public struct SystemPipelineClock: PipelineClock {
    /// Creates the clock.
    public init() {}

    public var now: Date { Date() }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
