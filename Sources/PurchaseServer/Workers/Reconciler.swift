import AppStoreAPI
import AppStoreModel
import Foundation
import Ledger

/// Finds notifications the server never received (Apple gave up, the server was down, a
/// proxy dropped them) by reading Apple's notification history since its last checkpoint,
/// and feeds each through the same ``NotificationIntake`` (duplicates cost nothing).
public struct Reconciler: Sendable {
    /// The checkpoint holding the end of the last complete pass (epoch milliseconds).
    static let checkpointName = "reconciler.notification_history"
    /// How far before the checkpoint each pass starts again, for notifications Apple adds
    /// to its history late.
    static let overlap: TimeInterval = 3_600
    /// The oldest history Apple serves.
    static let maximumLookback: TimeInterval = 180 * 86_400

    let client: AppStoreServerAPIClient
    let intake: NotificationIntake
    let store: any LedgerStore
    let lookback: TimeInterval

    /// What one pass did.
    public struct Report: Codable, Hashable, Sendable {
        /// The period read.
        public var startDate: Date
        /// The end of the period (the new checkpoint).
        public var endDate: Date
        /// Notifications in the history.
        public var fetched: Int
        /// Notifications recorded and acted on now (the ones the server had missed, or not finished).
        public var processed: Int
        /// Notifications already processed.
        public var duplicates: Int
        /// Notifications that failed verification (counted, skipped).
        public var rejected: Int
    }

    /// Reads the history from the checkpoint (or `lookback` ago) to `now` and processes
    /// every notification; advances the checkpoint only when the whole period was read.
    ///
    /// - Throws: ``AppStoreServerAPIError`` when Apple fails, or the ledger's error; the
    ///   checkpoint stays where it was, so the next pass reads the period again.
    public func run(now: Date = Date()) async throws -> Report {
        let earliest = now.addingTimeInterval(-Self.maximumLookback)
        var start = now.addingTimeInterval(-lookback)
        if let text = try await store.checkpoint(Self.checkpointName), let milliseconds = Int64(text) {
            start = Date(timeIntervalSince1970: Double(milliseconds) / 1_000).addingTimeInterval(-Self.overlap)
        }
        // A checkpoint from the future (a clock that jumped, a damaged row) reads from now.
        start = min(max(start, earliest), now)
        let request = NotificationHistoryRequest(
            startDate: Self.milliseconds(start), endDate: Self.milliseconds(now))
        var report = Report(startDate: start, endDate: now, fetched: 0, processed: 0, duplicates: 0, rejected: 0)
        var token: String?
        repeat {
            let page = try await client.getNotificationHistory(request, paginationToken: token)
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
                }
            }
            token = page.hasMore == true ? page.paginationToken : nil
        } while token != nil
        try await store.setCheckpoint(Self.checkpointName, value: String(request.endDate ?? 0))
        return report
    }

    /// `date` in epoch milliseconds, saturating (the reconciler's dates are between 180
    /// days ago and now, so nothing saturates in practice).
    private static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1_000).rounded(.down)
        return Int64(exactly: value) ?? (value < 0 ? 0 : .max)
    }
}
