import Foundation

/// A named lease on background work that every process sharing one database coordinates
/// on (the reconciler's passes): one holder at a time, until it expires or is released.
///
/// Taken and renewed with ``LedgerStore/acquireLease(_:holder:duration:)``; a holder that
/// dies loses it when it expires.
public struct Lease: Sendable, Hashable {
    /// The lease's name (a row of the `checkpoints` table).
    public var name: String
    /// Who holds it: an id unique to one process.
    public var holder: String
    /// When it ends unless its holder renews it.
    public var expiresAt: Date

    /// Creates a lease value.
    public init(name: String, holder: String, expiresAt: Date) {
        self.name = name
        self.holder = holder
        self.expiresAt = expiresAt
    }
}
