import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AppStoreEmulator

/// The journal's group sync: nobody is answered before a sync that started after their
/// append returned, the callers that wait during a sync share the next one, and a failed
/// sync is the error of every caller it was to cover.
struct JournalSyncerTests {
    /// A stand-in for `fsync` that tells the test when each sync starts and holds it until
    /// the test lets it go, answering what the test says.
    final class HeldSync: Sendable {
        let started: AsyncStream<Int>
        private let startedContinuation: AsyncStream<Int>.Continuation
        private let releases = DispatchSemaphore(value: 0)
        private let answers = Mutex<[Int32]>([])
        private let count = Mutex(0)

        init() {
            (started, startedContinuation) = AsyncStream.makeStream(of: Int.self)
        }

        /// The function the syncer calls: counts, announces, waits for ``release(answering:)``.
        func sync(_ descriptor: Int32) -> Int32 {
            let number = count.withLock { count in
                count += 1
                return count
            }
            startedContinuation.yield(number)
            releases.wait()
            return answers.withLock { $0.removeFirst() }
        }

        /// Lets the held sync return `code` (0, or an errno).
        func release(answering code: Int32 = 0) {
            answers.withLock { $0.append(code) }
            releases.signal()
        }

        var syncs: Int { count.withLock { $0 } }
    }

    /// A syncer of a new file (removed by the caller) whose syncs `held` holds.
    private func makeSyncer(_ held: HeldSync) throws -> (JournalSyncer, URL) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("syncer-\(UUID().uuidString)")
        try Data().write(to: url)
        return (JournalSyncer(handle: try FileHandle(forWritingTo: url), path: url.path, sync: held.sync), url)
    }

    @Test("an append made during a sync waits for the next one; appends made during one sync share the next")
    func appendsDuringASyncWaitForTheNext() async throws {
        let held = HeldSync()
        let (syncer, url) = try makeSyncer(held)
        defer { try? FileManager.default.removeItem(at: url) }
        var started = held.started.makeAsyncIterator()

        let first = syncer.noteAppended()
        let firstDone = Task { try await syncer.waitUntilDurable(first) }
        #expect(await started.next() == 1)

        // Written while sync 1 runs: sync 1 may have started before these bytes were written.
        let second = syncer.noteAppended()
        let secondAnswered = Mutex(false)
        let secondDone = Task {
            try await syncer.waitUntilDurable(second)
            secondAnswered.withLock { $0 = true }
        }
        held.release()
        try await firstDone.value
        #expect(await started.next() == 2)
        #expect(!secondAnswered.withLock { $0 }, "answered before a sync that started after its append returned")

        // Two appends written while sync 2 runs share sync 3.
        let third = syncer.noteAppended()
        let fourth = syncer.noteAppended()
        let laterDone = Task {
            async let thirdDone: Void = syncer.waitUntilDurable(third)
            async let fourthDone: Void = syncer.waitUntilDurable(fourth)
            _ = try await (thirdDone, fourthDone)
        }
        held.release()
        try await secondDone.value
        #expect(await started.next() == 3)
        held.release()
        try await laterDone.value
        #expect(held.syncs == 3)

        // Everything is durable now: waiting again costs no sync.
        try await syncer.waitUntilDurable(fourth)
        try await syncer.waitUntilDurable(syncer.lastAppend)
        #expect(held.syncs == 3)
    }

    @Test("a failed sync is the error of the callers it was to cover, and the next append is synced anew")
    func aFailedSyncFailsItsCallers() async throws {
        let held = HeldSync()
        let (syncer, url) = try makeSyncer(held)
        defer { try? FileManager.default.removeItem(at: url) }
        var started = held.started.makeAsyncIterator()

        let failing = syncer.noteAppended()
        let failed = Task { try await syncer.waitUntilDurable(failing) }
        #expect(await started.next() == 1)
        held.release(answering: EIO)
        await #expect(throws: CocoaError.self) { try await failed.value }

        let next = syncer.noteAppended()
        let nextDone = Task { try await syncer.waitUntilDurable(next) }
        #expect(await started.next() == 2)
        held.release()
        try await nextDone.value
    }
}
