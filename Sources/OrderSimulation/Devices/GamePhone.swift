/// A phone the run's players buy on, whatever its store: an Apple device
/// (``SimulatedDevice``) or an Android phone (``AndroidPhone``). The run drives each through
/// its purchases, quiesces it and asks what it still works on.
protocol GamePhone: Actor {
    /// The players who buy on it.
    nonisolated var players: [String] { get }
    /// Launches the app, before a serial run's first turn.
    func start() async
    /// Makes `count` purchases, one after another, under the faults its plan rolls.
    func run(purchases count: Int) async
    /// Makes the next purchase under the faults its plan rolls.
    func purchaseNext() async
    /// Ends the faults and waits, until `deadline` at most, until the app has nothing left to do.
    func quiesce(deadline: ContinuousClock.Instant) async
    /// What is still left on the phone, for each purchase with work left.
    func waits() async -> [DeviceWait]
    /// Stops the app.
    func shutDown() async
}
