import Foundation

/// Why a reconciler pass did not run to its end because of the lease that keeps passes one
/// at a time across every instance on the database. Nothing is lost either way: the
/// checkpoint did not move, so the next pass reads the same period.
public enum ReconcilerLeaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another instance holds the lease: this pass was skipped before reading anything.
    case held(by: String, until: Date)
    /// The lease expired during the pass and another instance took it (or it was
    /// released): this pass stopped without advancing the checkpoint.
    case lost

    /// A one-line explanation for logs and operators.
    public var description: String {
        switch self {
        case .held(let holder, let expiresAt):
            "skipped: another instance (\(holder)) is running a reconciler pass; "
                + "its lease ends by \(expiresAt.formatted(.iso8601))"
        case .lost:
            "stopped: the reconciler lease passed to another instance during this pass; the checkpoint did not move"
        }
    }
}
