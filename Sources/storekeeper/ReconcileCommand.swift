import ArgumentParser
import Foundation
import Logging
import PurchaseServer

/// `storekeeper reconcile`: one reconciler pass, for cron or after an outage.
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Read Apple's notification history since the last checkpoint and deliver what was missed.",
        discussion: "With --dev, reads the history of a running `storekeeper serve --dev` on --port."
    )

    @OptionGroup var options: ServerOptions

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let emulator = try await options.makeDevEmulator()
        let configuration: ServerConfiguration
        do {
            configuration = try options.configuration(emulator: emulator)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        await emulator?.shutdown()
        let store = try await options.openStore()
        defer { Task { try? await store.close() } }
        let server: PurchaseServer
        do {
            server = try PurchaseServer(
                configuration: configuration, store: store, trustRoots: options.trustRoots(emulator: emulator),
                logger: Logger(label: "storekeeper"))
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        guard let reconciler = server.reconciler else {
            throw ValidationError("the App Store Server API is not configured (appStoreServerAPI or STOREKEEPER_APPLE_API_*)")
        }
        let report = try await reconciler.run()
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
