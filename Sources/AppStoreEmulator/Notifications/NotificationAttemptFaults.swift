/// The faults ``NotificationFaults`` applies to one attempt.
public struct NotificationAttemptFaults: Hashable, Sendable {
    /// Whether the body is POSTed twice.
    public var duplicate: Bool
    /// How long the attempt is held back beyond its due time (zero when neither reordered
    /// nor delayed).
    public var extraDelay: Duration
    /// Whether ``extraDelay`` includes the long ``NotificationFaults/delay``.
    public var delayed: Bool

    /// Creates the faults of one attempt.
    public init(duplicate: Bool = false, extraDelay: Duration = .zero, delayed: Bool = false) {
        self.duplicate = duplicate
        self.extraDelay = extraDelay
        self.delayed = delayed
    }
}
