import Foundation

/// The ledger's named checkpoints and the leases that let one process at a time advance
/// them.
public protocol LeaseStore: Sendable {
    /// A named checkpoint's value (e.g. the reconciler's last notification-history date).
    func checkpoint(_ name: String) async throws -> String?

    /// Sets a named checkpoint.
    func setCheckpoint(_ name: String, value: String) async throws

    /// Takes the lease `name` for `holder` until `duration` from now, in one statement:
    /// inserted when absent, taken over when expired, renewed when `holder` holds it;
    /// another holder's unexpired lease is left alone. Returns the lease as it stands
    /// afterwards: `holder` holds it when it names `holder`.
    ///
    /// Every process on the database coordinates through it (the reconciler runs one pass
    /// at a time across instances); expiry is judged by the clocks of the processes, so a
    /// lease should last far longer than their clocks can differ.
    func acquireLease(_ name: String, holder: String, duration: TimeInterval) async throws -> Lease

    /// Ends the lease if `holder` holds it; does nothing otherwise.
    func releaseLease(_ name: String, holder: String) async throws

    /// Moves the numeric checkpoint `name` forward to `value`, in one transaction, only
    /// while `lease`'s holder still holds it unexpired: never backwards (a value at or
    /// below the stored one leaves it, ``CheckpointAdvance/unchanged``), never by a holder
    /// that lost its lease (``CheckpointAdvance/leaseLost``, nothing written). A stored
    /// value that is not a number is replaced.
    func advanceCheckpoint(_ name: String, to value: Int64, holding lease: Lease) async throws -> CheckpointAdvance
}
