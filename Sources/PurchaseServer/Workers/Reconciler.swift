import AppStoreAPI
import AppStoreModel
import Foundation
import Ledger

/// Finds notifications the server never received (Apple gave up, the server was down, a
/// proxy dropped them) by reading Apple's notification history since its last checkpoint,
/// and feeds each through the same ``NotificationIntake`` (duplicates cost nothing); then
/// checks the subscriptions that should have renewed or ended by now against Get All
/// Subscription Statuses (``reconcileSubscriptions(client:now:lease:report:)``); then consumes
/// or acknowledges at Google the Play purchases delivered but not yet settled there
/// (``PlayAcknowledger/settleOwed(now:limit:)``), long before Google's three days end; and
/// applies the Play purchases Google voided whose notification never came
/// (``reconcilePlayVoids(_:now:lease:report:)``).
///
/// One pass runs at a time across every instance sharing the ledger: a pass first takes
/// the ledger's lease (``LedgerStore/acquireLease(_:holder:duration:)``), renews it after
/// each page of history, and releases it at the end; a pass that finds the lease held by
/// another instance is skipped (``ReconcilerLeaseError/held(by:until:)``). The checkpoint
/// moves forward after each window of history read whole (``HistoryWindow``), never back,
/// and only while the pass still holds the lease.
public struct Reconciler: Sendable {
    /// The checkpoint holding the end of the history read whole so far (epoch milliseconds).
    static let checkpointName = "reconciler.notification_history"
    /// Where the next pass reads on (epoch milliseconds) after a pass that stopped before its
    /// end (its budget spent, or a page failed): the end of the history that pass read
    /// whole; empty after a pass that read to its end. In the ledger beside the checkpoint,
    /// so that a restarted server reads on too instead of reading the overlap before the
    /// checkpoint again. It only ever says where to start: a pass that starts past the
    /// checkpoint never moves the checkpoint, so a value written late by an instance that
    /// lost the lease can delay a read, never skip one.
    static let resumeCheckpointName = "reconciler.notification_history.resume"
    /// The lease that keeps passes one at a time across instances.
    static let leaseName = "reconciler.lease"
    /// How long a lease lasts without renewal: far longer than one page of history takes,
    /// and the longest a pass of an instance that died holds up the others.
    static let leaseDuration: TimeInterval = 60
    /// A new name for a server on the lease: `HOST:PID:random`, so that an operator can
    /// tell which instance holds it.
    static func makeLeaseHolder() -> String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):"
            + UUID().uuidString.prefix(8).lowercased()
    }
    /// The oldest history Apple serves.
    static let maximumLookback: TimeInterval = 180 * 86_400

    /// Apple's Server API; `nil` when only Google Play is configured (no history is read).
    let client: AppStoreServerAPIClient?
    let intake: NotificationIntake
    let store: any LedgerStore
    let lookback: TimeInterval
    /// The server's name on the lease.
    let holder: String
    /// Keeps this server's passes one after another, so that one pass never releases the
    /// lease another pass of the same server still works under.
    let gate: PassGate
    /// Settles Play purchases at Google; `nil` while Play is off.
    var playAcknowledger: PlayAcknowledger? = nil
    /// Applies Google Play's voided purchases; `nil` while Play is off.
    var playVoids: PlayVoidSettler? = nil
    /// How far before its checkpoint each pass reads Apple's notification history again,
    /// for notifications Apple adds to it late (``ServerConfiguration/reconcilerOverlapSeconds``).
    var overlap: TimeInterval = ServerConfiguration.defaultReconcilerOverlapSeconds
    /// How much history is read between two moves of the checkpoint, learnt pass after pass.
    var historyWindow = HistoryWindow()
    /// How long a pass reads Apple's history before it goes on to the rest of its work
    /// (``defaultHistoryBudget``); `nil` to read it all. The pass stops at the end of a
    /// window (each window's end is in the checkpoint), says so in
    /// ``Report/historyComplete``, and the next pass reads on.
    public var historyBudget: TimeInterval? = Reconciler.defaultHistoryBudget
    /// The history budget of the server's own passes: long enough for a hundred pages of
    /// Apple's history, short enough that a backlog read under load (pages of a second and
    /// more) does not keep the subscriptions and Google's acknowledgements waiting for minutes.
    public static let defaultHistoryBudget: TimeInterval = 30

    /// What one pass did.
    public struct Report: Codable, Hashable, Sendable {
        /// The period read.
        public var startDate: Date
        /// The end of the period read (the new checkpoint; before the pass's end when the
        /// history budget ran out first).
        public var endDate: Date
        /// Notifications in the history.
        public var fetched: Int
        /// Notifications recorded and acted on now (the ones the server had missed, or not finished).
        public var processed: Int
        /// Notifications already processed.
        public var duplicates: Int
        /// Notifications that failed verification (counted, skipped).
        public var rejected: Int
        /// Lapsed subscriptions (entitled past their end) checked with Get All Subscription Statuses.
        public var subscriptionsChecked = 0
        /// Entitlements that check changed (a lost renewal delivered, a state brought in line).
        public var subscriptionsUpdated = 0
        /// Checks Apple did not answer, or answered with data that did not verify.
        public var subscriptionFailures = 0
        /// Checked subscriptions still lapsed afterwards, postponed (a minute, doubling with
        /// each check in a row, at most a day).
        public var subscriptionsPostponed = 0
        /// Google Play purchases delivered but not yet consumed or acknowledged at Google.
        public var playUnacknowledged = 0
        /// Of those, the ones consumed or acknowledged by this pass.
        public var playAcknowledged = 0
        /// Google Play voided purchases listed since the last complete read.
        public var playVoidsFetched = 0
        /// Of those, the ones whose purchase was delivered here and is now settled to the void
        /// (most were already, by their notification).
        public var playVoidsSettled = 0
        /// Listed records without an order id or a token, or with malformed ones (skipped).
        public var playVoidsRejected = 0
        /// Whether Apple's history was read to the pass's end; `false` when the pass used
        /// its history budget first and stopped at ``endDate`` (the next pass reads on).
        public var historyComplete = true
    }

    /// Reads the history from the checkpoint less the overlap (or `lookback` ago) to `now`
    /// and processes every notification; advances the checkpoint to the end of each window
    /// read whole while every notification so far was processed, under the lease, and never
    /// backwards. Waits for a pass of this server that is under way; skips when another
    /// instance holds the lease.
    ///
    /// - Throws: ``ReconcilerLeaseError/held(by:until:)`` (nothing read) or
    ///   ``ReconcilerLeaseError/lost`` (the pass outlived its lease); ``AppStoreServerAPIError``
    ///   when Apple fails to serve a page of the history; the first error of a notification
    ///   that could not be processed, after the rest of the history was (it stays
    ///   unprocessed). The checkpoint stays at the start of the window that failed, so the
    ///   next pass reads from there again.
    public func run(now: Date = Date()) async throws -> Report {
        try await gate.run {
            let lease = try await store.acquireLease(Self.leaseName, holder: holder, duration: Self.leaseDuration)
            guard lease.holder == holder else {
                throw ReconcilerLeaseError.held(by: lease.holder, until: lease.expiresAt)
            }
            let result: Result<Report, any Error>
            do {
                result = .success(try await pass(now: now, lease: lease))
            } catch {
                result = .failure(error)
            }
            // Released in a task of its own, which a cancelled pass (a server shutting down)
            // does not cancel; a lease left behind by a process that died expires.
            let (store, holder) = (store, holder)
            let released = await Task { try await store.releaseLease(Self.leaseName, holder: holder) }.result
            let report = try result.get()
            try released.get()
            return report
        }
    }

    private func pass(now: Date, lease: Lease) async throws -> Report {
        var lease = lease
        let earliest = now.addingTimeInterval(-Self.maximumLookback)
        var start = now.addingTimeInterval(-lookback)
        let checkpoint = try await store.checkpoint(Self.checkpointName).flatMap { Int64($0) }
        if let checkpoint {
            start = Date(timeIntervalSince1970: Double(checkpoint) / 1_000).addingTimeInterval(-overlap)
        }
        // A pass after one that stopped early reads on from where that one stopped. Past the
        // checkpoint (a notification that failed is held behind it), it moves the checkpoint
        // no further: the history between them is not read whole until a pass starts from
        // the checkpoint again.
        var advancing = true
        let resume = client == nil ? nil : try await store.checkpoint(Self.resumeCheckpointName).flatMap { Int64($0) }
        if let resume {
            start = max(start, Date(timeIntervalSince1970: Double(resume) / 1_000))
            advancing = checkpoint.map { resume <= $0 } ?? false
        }
        // A checkpoint from the future (a clock that jumped, a damaged row) reads from now.
        start = min(max(start, earliest), now)
        var report = Report(startDate: start, endDate: now, fetched: 0, processed: 0, duplicates: 0, rejected: 0)
        var firstFailure: (any Error)?
        if let client {
            try await storePart(&firstFailure) {
                let failure = try await readHistory(
                    client, from: start, to: now, advancing: advancing, resumed: resume != nil, lease: &lease,
                    report: &report)
                try await reconcileSubscriptions(client: client, now: now, lease: &lease, report: &report)
                return failure
            }
        }
        if let playVoids {
            try await storePart(&firstFailure) {
                try await reconcilePlayVoids(playVoids, now: now, lease: &lease, report: &report)
            }
        }
        if let playAcknowledger {
            try await storePart(&firstFailure) {
                let settled = try await playAcknowledger.settleOwed(now: now)
                report.playUnacknowledged = settled.checked
                report.playAcknowledged = settled.settled
                return nil
            }
        }
        if let firstFailure { throw firstFailure }
        return report
    }

    /// Runs one part of a pass (Apple's history and subscriptions, Google's voided purchases,
    /// Google's acknowledgements) and keeps its failure, thrown or returned, in `failure` when
    /// none came before: the pass then fails at its end, but the other parts still run. A store that is down must not hold back the other's work: an
    /// App Store outage left alone would keep Google Play purchases unacknowledged until
    /// Google refunds them on its third day. A lost lease or a cancellation ends the pass.
    private func storePart(_ failure: inout (any Error)?, _ body: () async throws -> (any Error)?) async throws {
        do {
            if let error = try await body() { failure = failure ?? error }
        } catch let error where error is CancellationError || error is ReconcilerLeaseError {
            throw error
        } catch {
            failure = failure ?? error
        }
    }

    /// `date` in epoch milliseconds, saturating (the reconciler's dates are between 180
    /// days ago and now, so nothing saturates in practice).
    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1_000).rounded(.down)
        return Int64(exactly: value) ?? (value < 0 ? 0 : .max)
    }
}
