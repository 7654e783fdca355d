import Foundation

/// How many audit records match a question, and when the newest of them was made.
public struct AuditTally: Sendable, Hashable {
    /// How many records match.
    public var count: Int
    /// When the newest of them was made; `nil` when none match.
    public var latest: Date?

    /// Creates a tally value.
    public init(count: Int, latest: Date?) {
        self.count = count
        self.latest = latest
    }
}
