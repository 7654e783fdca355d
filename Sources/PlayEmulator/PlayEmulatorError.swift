/// A device or control request the Play side refuses, answered in the emulator's own shape
/// `{"error": code, "message": …}` with ``status``.
public struct PlayEmulatorError: Error, Hashable, Sendable {
    /// Stable machine-readable code, e.g. `unknown_product`.
    public var code: String
    /// What went wrong, for a person.
    public var message: String
    /// The HTTP status.
    public var status: Int

    /// Creates an error.
    public init(_ code: String, _ message: String, status: Int = 400) {
        self.code = code
        self.message = message
        self.status = status
    }
}
