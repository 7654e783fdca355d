import ArgumentParser
import Foundation
import Logging
import PurchaseServer

/// `storekeeper reconcile`: one reconciler pass, for cron or after an outage.
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Read Apple's notification history since the last checkpoint and deliver what was missed.",
        discussion: "Uses the same configuration as `serve` (the App Store Server API key must be set)."
    )

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
            guard let reconciler = server.reconciler else {
                throw ValidationError(
                    "the App Store Server API is not configured (appStoreServerAPI or STOREKEEPER_APPLE_API_*)")
            }
            report = try await reconciler.run()
            try await store.close()
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
                    + "\(report.rejected) rejected")
        }
    }
}
