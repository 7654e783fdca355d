import ArgumentParser
import Foundation
import Logging
import PurchaseServer

/// `storekeeper reconcile`: one reconciler pass, for cron or after an outage.
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Read Apple's notification history since the last checkpoint and deliver what was missed.",
        discussion: """
            Uses the same configuration as `serve` (the App Store Server API key must be set). One pass runs \
            at a time across every instance on the database: when another instance's pass holds the lease, \
            this one is skipped, says so, and exits with status 3 (nothing was read; run it again later).
            """
    )

    /// The exit status of a pass skipped because another instance holds the lease.
    static let skippedStatus: Int32 = 3

    @OptionGroup var options: ServerOptions

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let configuration = try options.configuration()
        let store = try await options.openStore()
        let report: Reconciler.Report
        do {
            let server = try PurchaseServer(
                configuration: configuration, store: store, logger: Logger(label: "storekeeper"))
            guard var reconciler = server.reconciler else {
                throw ValidationError(
                    "neither the App Store Server API (appStoreServerAPI or STOREKEEPER_APPLE_API_*) nor Google Play "
                        + "(googlePlay or STOREKEEPER_GOOGLE_PLAY_PACKAGE_NAME) is configured")
            }
            reconciler.historyBudget = nil  // one pass after an outage reads all of it
            report = try await reconciler.run()
            try await store.close()
        } catch ReconcilerLeaseError.held(let holder, let expiresAt) {
            try? await store.close()
            printSkipped(holder: holder, expiresAt: expiresAt)
            throw ExitCode(Self.skippedStatus)
        } catch {
            try? await store.close()
            if let error = error as? ConfigurationError { throw ValidationError(error.description) }
            throw error
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(
                "read \(report.startDate) to \(report.endDate): \(report.fetched) notifications, "
                    + "\(report.processed) processed now, \(report.duplicates) already processed, "
                    + "\(report.rejected) rejected; \(report.subscriptionsChecked) lapsed subscriptions checked, "
                    + "\(report.subscriptionsUpdated) updated, \(report.subscriptionFailures) failed, "
                    + "\(report.subscriptionsPostponed) postponed; \(report.playAcknowledged) of "
                    + "\(report.playUnacknowledged) Google Play purchases consumed or acknowledged; "
                    + "\(report.playVoidsFetched) Google Play voided purchases listed, \(report.playVoidsSettled) "
                    + "settled, \(report.playVoidsRejected) rejected")
        }
    }

    private func printSkipped(holder: String, expiresAt: Date) {
        if json {
            printJSON([
                "skipped": true, "leaseHolder": holder, "leaseExpiresAt": expiresAt.formatted(.iso8601),
            ])
        } else {
            print(ReconcilerLeaseError.held(by: holder, until: expiresAt).description)
        }
    }
}
