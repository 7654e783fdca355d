import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes the appends to one file durable in groups, off the caller's thread: the callers
/// that wait while an `fsync` is under way share the next one, which covers every append
/// written before it started.
///
/// Each append is numbered (``noteAppended()``) once its bytes are written; a caller then
/// waits (``waitUntilDurable(_:)``) until an `fsync` that started after that write has
/// returned. The `fsync`s run one at a time on a dispatch queue of their own, never on the
/// caller's executor, so an actor that appends keeps serving other calls while the disk
/// syncs.
final class JournalSyncer: Sendable {
    private struct Waiter {
        let append: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        /// The number of the last append written.
        var written: UInt64 = 0
        /// Every append up to this number is on disk.
        var synced: UInt64 = 0
        /// Whether the queue is syncing (or about to).
        var syncing = false
        var waiters: [Waiter] = []
    }

    private let handle: FileHandle
    private let path: String
    private let sync: @Sendable (Int32) -> Int32
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "storekeeper.emulator.journal-sync")

    /// Syncs the file open in `handle` (the file at `path`), and closes it when done.
    ///
    /// - Parameter sync: Makes a descriptor's writes durable and answers 0, or the `errno`
    ///   of its failure: `fsync`, or a test's stand-in that holds a sync to force an
    ///   interleaving.
    init(
        handle: FileHandle, path: String,
        sync: @escaping @Sendable (Int32) -> Int32 = { fsync($0) == 0 ? 0 : errno }
    ) {
        self.handle = handle
        self.path = path
        self.sync = sync
    }

    deinit {
        try? handle.close()
    }

    /// Numbers an append whose bytes were just written, after every earlier one.
    @discardableResult
    func noteAppended() -> UInt64 {
        state.withLock { state in
            state.written += 1
            return state.written
        }
    }

    /// The number of the last append written.
    var lastAppend: UInt64 {
        state.withLock { $0.written }
    }

    /// Returns once append `append`, and every one before it, is on disk.
    ///
    /// - Throws: `CocoaError` `.fileWriteUnknown` when the `fsync` meant to cover it failed.
    func waitUntilDurable(_ append: UInt64) async throws {
        guard !state.withLock({ $0.synced >= append }) else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let (durable, startsSyncing) = state.withLock { state -> (Bool, Bool) in
                guard state.synced < append else { return (true, false) }
                state.waiters.append(Waiter(append: append, continuation: continuation))
                guard !state.syncing else { return (false, false) }
                state.syncing = true
                return (false, true)
            }
            if durable { continuation.resume() }
            if startsSyncing { queue.async { self.syncWhileWaitedFor() } }
        }
    }

    /// Syncs until nobody waits: each `fsync` covers the appends written before it started,
    /// and answers the callers waiting for those.
    private func syncWhileWaitedFor() {
        while true {
            let target = state.withLock { $0.written }
            let code = sync(handle.fileDescriptor)
            let failure: (any Error)? =
                code == 0
                ? nil
                : CocoaError(
                    .fileWriteUnknown,
                    userInfo: [
                        NSFilePathErrorKey: path,
                        NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
                    ])
            let (answered, done) = state.withLock { state -> ([Waiter], Bool) in
                if failure == nil { state.synced = max(state.synced, target) }
                let answered = state.waiters.filter { $0.append <= target }
                state.waiters.removeAll { $0.append <= target }
                if state.waiters.isEmpty { state.syncing = false }
                return (answered, !state.syncing)
            }
            for waiter in answered {
                if let failure {
                    waiter.continuation.resume(throwing: failure)
                } else {
                    waiter.continuation.resume()
                }
            }
            if done { return }
        }
    }
}
