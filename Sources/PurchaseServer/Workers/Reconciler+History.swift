import AppStoreAPI
import AppStoreModel
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
    /// and moves the checkpoint to the end of each window read whole, as long as every
    /// notification so far was processed. A page that fails for good ends the read; the
    /// windows before it stay read.
    ///
    /// - Returns: The first error of a notification that could not be processed (it stays
    ///   unprocessed; the rest went through, and the checkpoint stays before its window),
    ///   or `nil`.
    /// - Throws: ``AppStoreServerAPIError`` when Apple fails to serve a page;
    ///   ``ReconcilerLeaseError/lost``.
    func readHistory(
        _ client: AppStoreServerAPIClient, from start: Date, to end: Date, lease: inout Lease, report: inout Report
    ) async throws -> (any Error)? {
        var firstFailure: (any Error)?
        var windowStart = Self.milliseconds(start)
        let end = Self.milliseconds(end)
        while windowStart < end {
            let length = Int64((historyWindow.length * 1_000).rounded())
            let request = NotificationHistoryRequest(
                startDate: windowStart, endDate: windowStart < end - length ? windowStart + length : end)
            let windowEnd = request.endDate ?? end
            var pages = 0
            var token: String?
            repeat {
                let page = try await historyPage(client, request, paginationToken: token)
                pages += 1
                if let failure = try await receive(page, report: &report) { firstFailure = firstFailure ?? failure }
                token = page.hasMore == true ? page.paginationToken : nil
                lease = try await store.acquireLease(Self.leaseName, holder: holder, duration: Self.leaseDuration)
                guard lease.holder == holder else { throw ReconcilerLeaseError.lost }
            } while token != nil
            historyWindow.record(length: Double(windowEnd - windowStart) / 1_000, pages: pages)
            if firstFailure == nil {
                let advance = try await store.advanceCheckpoint(Self.checkpointName, to: windowEnd, holding: lease)
                guard advance != .leaseLost else { throw ReconcilerLeaseError.lost }
            }
            windowStart = windowEnd
        }
        return firstFailure
    }

    /// Processes each notification of `page`, counting it in `report`.
    ///
    /// - Returns: The first error of a notification that could not be processed, or `nil`.
    private func receive(_ page: NotificationHistoryResponse, report: inout Report) async throws -> (any Error)? {
        var firstFailure: (any Error)?
        for item in page.notificationHistory ?? [] {
            guard let signedPayload = item.signedPayload else { continue }
            report.fetched += 1
            do {
                switch try await intake.receive(signedPayload: signedPayload, source: .reconciler) {
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
        return firstFailure
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
