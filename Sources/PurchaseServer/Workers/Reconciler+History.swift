import AppStoreAPI
import AppStoreModel
import AppStoreVerification
import Foundation
import Ledger

/// Reading Apple's notification history.
extension Reconciler {
    /// How often one page of the history is asked for before the pass gives up: without
    /// retries one transient error in a hundred pages would throw the window it belongs to
    /// away (the simulation's soak saw no periodic pass complete at a 20% Server API error
    /// rate).
    static let pageAttempts = 4
    /// The longest wait before asking for a page again (Apple's `Retry-After` included).
    static let longestPageRetryDelay: TimeInterval = 5

    /// Reads Apple's notification history from `start` to `end` window by window
    /// (``HistoryWindow``), processes each notification, renews the lease after each page,
    /// and, when `advancing` (`start` is not past the checkpoint), moves the checkpoint to
    /// the end of each window read whole, as long as every notification so far was
    /// processed. A page that fails for good ends the read; the windows before it stay read.
    /// Once ``historyBudget`` has passed, no further window is begun
    /// (``Report/historyComplete``); the first always is. A read that stops before `end`
    /// records where the next pass reads on (``resumeCheckpointName``); one that reads to
    /// `end` clears it when the pass was `resumed` from it.
    ///
    /// - Returns: The first error of a notification that could not be processed (it stays
    ///   unprocessed; the rest went through, and the checkpoint stays before its window),
    ///   or `nil`.
    /// - Throws: ``AppStoreServerAPIError`` when Apple fails to serve a page;
    ///   ``ReconcilerLeaseError/lost``.
    func readHistory(
        _ client: AppStoreServerAPIClient, from start: Date, to end: Date, advancing: Bool, resumed: Bool,
        lease: inout Lease, report: inout Report
    ) async throws -> (any Error)? {
        var firstFailure: (any Error)?
        var windowStart = Self.milliseconds(start)
        let end = Self.milliseconds(end)
        var cutAt: Int64?
        let deadline = historyBudget.map { ContinuousClock.now + .milliseconds(Int64(($0 * 1_000).rounded())) }
        var windowsRead = 0
        // The end of the history read whole: where the next pass reads on when this one
        // stops before its end. A notification that failed to process is behind it, and
        // behind the checkpoint: the first pass after one that reads to its end starts from
        // the checkpoint again and tries it.
        var readTo = windowStart
        while windowStart < end {
            if windowsRead > 0, let deadline, ContinuousClock.now >= deadline {
                report.historyComplete = false
                report.endDate = Date(timeIntervalSince1970: Double(windowStart) / 1_000)
                try await store.setCheckpoint(Self.resumeCheckpointName, value: String(readTo))
                return firstFailure
            }
            let length = Int64((historyWindow.length * 1_000).rounded())
            let request = NotificationHistoryRequest(
                startDate: windowStart, endDate: windowStart < end - length ? windowStart + length : end)
            let read: Bool
            do {
                read = try await readWindow(
                    client, request, mayCut: cutAt != windowStart, lease: &lease, report: &report,
                    firstFailure: &firstFailure)
            } catch {
                // Unrecorded (the ledger failing too), the next pass starts where an
                // earlier pass left off, or from the checkpoint: it reads more again and
                // misses nothing.
                try? await store.setCheckpoint(Self.resumeCheckpointName, value: String(readTo))
                throw error
            }
            guard read else {
                cutAt = windowStart  // read again from its start, shorter, and whole
                continue
            }
            let windowEnd = request.endDate ?? end
            if advancing, firstFailure == nil {
                let advance = try await store.advanceCheckpoint(Self.checkpointName, to: windowEnd, holding: lease)
                guard advance != .leaseLost else { throw ReconcilerLeaseError.lost }
            }
            readTo = windowEnd
            windowStart = windowEnd
            windowsRead += 1
        }
        if resumed { try await store.setCheckpoint(Self.resumeCheckpointName, value: "") }
        return firstFailure
    }

    /// Reads every page of one window of history, processes each notification, renews the
    /// lease after each page, and tells ``historyWindow`` what the window held.
    ///
    /// - Returns: `false` when `mayCut` and a page showed the window to hold far more than its
    ///   target (``HistoryWindow/cut(length:start:oldest:spacing:)``): it is to be read
    ///   again from its start, shorter (what was read stays processed; read again, it is a
    ///   duplicate).
    private func readWindow(
        _ client: AppStoreServerAPIClient, _ request: NotificationHistoryRequest, mayCut: Bool, lease: inout Lease,
        report: inout Report, firstFailure: inout (any Error)?
    ) async throws -> Bool {
        let start = request.startDate ?? 0
        let length = Double((request.endDate ?? start) - start) / 1_000
        var pages = 0
        var spacing: TimeInterval?
        var token: String?
        do {
            repeat {
                let page = try await historyPage(client, request, paginationToken: token)
                pages += 1
                let (failure, dates) = try await receive(page, report: &report)
                firstFailure = firstFailure ?? failure
                token = page.hasMore == true ? page.paginationToken : nil
                lease = try await store.acquireLease(Self.leaseName, holder: holder, duration: Self.leaseDuration)
                guard lease.holder == holder else { throw ReconcilerLeaseError.lost }
                guard let pageSpacing = HistoryWindow.spacing(of: dates) else { continue }
                spacing = pageSpacing
                if mayCut, token != nil, let oldest = dates.min(),
                    historyWindow.cut(length: length, start: start, oldest: oldest, spacing: pageSpacing) != nil
                {
                    return false
                }
            } while token != nil
        } catch {
            historyWindow.record(length: length, pages: pages, spacing: spacing, failed: true)
            throw error
        }
        historyWindow.record(length: length, pages: pages, spacing: spacing)
        return true
    }

    /// Processes each notification of `page`, counting it in `report`.
    ///
    /// - Returns: The first error of a notification that could not be processed, or `nil`;
    ///   and the `signedDate` each notification claims (unverified, for ``HistoryWindow``).
    private func receive(
        _ page: NotificationHistoryResponse, report: inout Report
    ) async throws -> (failure: (any Error)?, dates: [Int64]) {
        var firstFailure: (any Error)?
        var dates: [Int64] = []
        for item in page.notificationHistory ?? [] {
            guard let signedPayload = item.signedPayload else { continue }
            report.fetched += 1
            let claim = UnverifiedNotificationClaim(signedPayload: signedPayload)
            if let date = claim?.signedDate { dates.append(date) }
            do {
                switch try await intake.receive(signedPayload: signedPayload, source: .reconciler, claim: claim) {
                case .processed: report.processed += 1
                case .duplicate: report.duplicates += 1
                }
            } catch let error as ServerError where error.status == .unprocessableContent {
                report.rejected += 1
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // Left unprocessed (e.g. Apple refused its consumption answer): the rest
                // of the history still goes through, and the checkpoint stays for the
                // next pass to try it again.
                firstFailure = firstFailure ?? error
            }
        }
        return (firstFailure, dates)
    }

    /// One page, asked for again after a retryable error (transport, 429, 5xx, Apple's
    /// retryable codes) up to ``pageAttempts`` times, waiting 0.25 s, 0.5 s, 1 s or
    /// Apple's `Retry-After` (at most ``longestPageRetryDelay``).
    private func historyPage(
        _ client: AppStoreServerAPIClient, _ request: NotificationHistoryRequest, paginationToken: String?
    ) async throws -> NotificationHistoryResponse {
        var attempt = 1
        while true {
            do {
                return try await client.getNotificationHistory(request, paginationToken: paginationToken)
            } catch {
                guard error.isRetryable, attempt < Self.pageAttempts else { throw error }
                let backoff = 0.25 * Double(1 << (attempt - 1))
                let delay = min(error.retryAfter ?? backoff, Self.longestPageRetryDelay)
                try await Task.sleep(for: .milliseconds(Int((delay * 1_000).rounded())))
                attempt += 1
            }
        }
    }
}
