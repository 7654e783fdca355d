/// The step boundaries of the pipeline, in order: the points where a process can die
/// between one journaled state and the next side effect. Tests crash the pipeline at each.
public enum PipelineBoundary: String, CaseIterable, Codable, Hashable, Sendable {
    /// `created` is journaled; the server order is not requested yet.
    case beforeOrder
    /// The server created the order; the journal does not know it yet.
    case afterOrder
    /// `purchasing` is journaled; the store is not asked yet.
    case beforeStorePurchase
    /// Apple charged; the journal does not know the transaction yet.
    case afterStorePurchase
    /// `purchased` is journaled; `reported` is not.
    case beforeReport
    /// `reported` is journaled; the report is not sent yet.
    case beforeServerCall
    /// The server delivered; the journal does not know it yet.
    case afterServerCall
    /// `delivered` is journaled; the transaction is not finished yet.
    case beforeFinish
    /// The store finished the transaction; the journal does not know it yet.
    case afterFinish
}

/// The stand-in for a process kill, thrown from a ``PipelineHooks/crashPoint`` hook: the
/// pipeline stops dead, writing nothing more, as a killed app would.
public struct SimulatedCrash: Error, Hashable, Sendable {
    /// Where it happened.
    public var boundary: PipelineBoundary

    /// Creates a crash at `boundary`.
    public init(at boundary: PipelineBoundary) {
        self.boundary = boundary
    }
}

/// Test hooks: called at every step boundary with the order concerned.
public struct PipelineHooks: Sendable {
    /// Called at each boundary; throw ``SimulatedCrash`` to kill the pipeline there, or
    /// do something at that moment (take the server down, switch the player).
    public var crashPoint: @Sendable (PipelineBoundary, PurchaseRecord) async throws -> Void

    /// Creates hooks.
    public init(crashPoint: @escaping @Sendable (PipelineBoundary, PurchaseRecord) async throws -> Void = { _, _ in }) {
        self.crashPoint = crashPoint
    }
}
