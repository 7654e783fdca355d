/// A simulation that could not run as asked.
public struct SimulationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
