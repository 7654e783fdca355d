import Dispatch

/// A simulated phone's storage thread: the executor its journal's file work runs on
/// (``RecordingPurchaseJournal``).
///
/// A journal writes with blocking calls (`write`, `fsync`, `rename`). On a phone they block
/// a thread of the phone's own; in the simulation every phone, the purchase server and the
/// App Store share one process, whose cooperative thread pool has a thread per core, so a
/// few phones syncing their journals would stall everything else. Each phone's file work
/// runs instead on a serial dispatch queue of its own, one at a time as on the phone, on a
/// thread that may block.
final class PhoneStorage: TaskExecutor {
    private let queue: DispatchQueue

    /// The storage of the phone named `label`.
    init(label: String) {
        queue = DispatchQueue(label: "storekeeper.simulation.\(label).storage")
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
