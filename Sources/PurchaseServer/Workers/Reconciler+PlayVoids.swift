import Foundation
import GooglePlayAPI
import Ledger
import PlayModel

extension Reconciler {
    /// The checkpoint holding the end of the last complete read of Google's voided
    /// purchases (epoch milliseconds).
    static let playVoidsCheckpointName = "reconciler.play_voided_purchases"
    /// How far back `voidedpurchases.list` serves: Google keeps 30 days.
    static let playVoidsMaximumLookback: TimeInterval = 30 * 86_400
    /// Google's largest page.
    static let playVoidsPageSize = 1_000
    /// How far before its checkpoint each pass reads Google's voided purchases again, for
    /// records Google adds late: an hour.
    static let playVoidsOverlap: TimeInterval = 3_600

    /// Reads Google Play's voided purchases (`voidedpurchases.list`, subscriptions and
    /// quantity-based partial refunds included) from the checkpoint, less ``playVoidsOverlap``, to
    /// `now`, page by page, and settles each as its notification would
    /// (``PlayVoidSettler``): voids whose push was lost are applied, the others change
    /// nothing. Renews the lease after each page; moves the checkpoint forward only when
    /// every record was settled.
    ///
    /// - Returns: The first error of a record that could not be settled (the rest were), or `nil`.
    /// - Throws: ``GooglePlayAPIError`` when Google fails to serve a page;
    ///   ``ReconcilerLeaseError/lost``.
    func reconcilePlayVoids(
        _ voids: PlayVoidSettler, now: Date, lease: inout Lease, report: inout Report
    ) async throws -> (any Error)? {
        var start = now.addingTimeInterval(-Self.playVoidsMaximumLookback)
        if let text = try await store.checkpoint(Self.playVoidsCheckpointName), let milliseconds = Int64(text) {
            start = max(
                start,
                Date(timeIntervalSince1970: Double(milliseconds) / 1_000).addingTimeInterval(-Self.playVoidsOverlap))
        }
        start = min(start, now)
        let (startTime, endTime) = (Self.milliseconds(start), Self.milliseconds(now))
        var pageToken: String?
        var firstFailure: (any Error)?
        repeat {
            let page = try await voids.client.voidedPurchases(
                startTime: startTime, endTime: endTime, maxResults: Self.playVoidsPageSize, pageToken: pageToken,
                type: 1, includeQuantityBasedPartialRefund: true)  // type 1: subscriptions' voids too
            for record in page.voidedPurchases ?? [] {
                report.playVoidsFetched += 1
                guard let void = PlayVoidSettler.Void(record) else {
                    report.playVoidsRejected += 1
                    continue
                }
                do {
                    if try await voids.settle(void) == .settled { report.playVoidsSettled += 1 }
                } catch let error as ServerError where error.status == .badRequest {
                    report.playVoidsRejected += 1
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    firstFailure = firstFailure ?? error
                }
            }
            pageToken = page.tokenPagination?.nextPageToken
            lease = try await store.acquireLease(Self.leaseName, holder: holder, duration: Self.leaseDuration)
            guard lease.holder == holder else { throw ReconcilerLeaseError.lost }
        } while pageToken != nil
        if firstFailure == nil {
            let advance = try await store.advanceCheckpoint(Self.playVoidsCheckpointName, to: endTime, holding: lease)
            guard advance != .leaseLost else { throw ReconcilerLeaseError.lost }
        }
        return firstFailure
    }
}
