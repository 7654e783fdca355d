/// Where a run's wall clock went, in seconds: what to read first when a run is slow.
public struct SimulationPhases: Encodable, Hashable, Sendable {
    /// The devices and subscription players making their purchases under faults.
    public var purchasing: Double = 0
    /// Waiting for every app to finish its work once the faults ended (both rounds before
    /// the first judgement; a round ends early once every app is idle).
    public var settlingApps: Double = 0
    /// Waiting for Apple's notifications to be delivered.
    public var deliveringNotifications: Double = 0
    /// The reconciler's final pass over Apple's history.
    public var reconciling: Double = 0
    /// The oracle, and any extra rounds of waiting for purchases in flight.
    public var judging: Double = 0

    /// Seconds from `start` to now, as a phase's length.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start) / .seconds(1)
    }
}
