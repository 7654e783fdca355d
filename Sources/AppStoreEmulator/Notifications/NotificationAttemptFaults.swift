/// The faults ``NotificationFaults`` applies to one attempt.
public struct NotificationAttemptFaults: Hashable, Sendable {
    /// Whether the body is POSTed twice.
    public var duplicate: Bool
    /// How long the attempt is held back beyond its due time (zero when not reordered).
    public var extraDelay: Duration

    /// Creates the faults of one attempt.
    public init(duplicate: Bool = false, extraDelay: Duration = .zero) {
        self.duplicate = duplicate
        self.extraDelay = extraDelay
    }
}
