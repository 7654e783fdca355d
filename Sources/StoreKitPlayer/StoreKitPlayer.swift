import Foundation
import PurchaseSDK
import PurchaseSDKStoreKit

/// `storekit-player`: a game's purchase pipeline over a StoreKit adapter (StoreKit for
/// Linux, pointed at an emulator), as one app process, for the process kill test.
///
/// ```
/// storekit-player --server URL --token TOKEN --player ID --data DIR --device ID
///                 [--api 1|2] [--buy PRODUCT] [--pause-at BOUNDARY]
/// ```
///
/// It points StoreKit at the emulator on `--server` (`serve --dev` serves both), keeps its
/// journal and StoreKit's files in `--data`, starts the pipeline (which resumes whatever
/// the journal holds) and, with `--buy`, buys. At `--pause-at` it prints `paused BOUNDARY`
/// and waits, for the test to SIGKILL it there. Otherwise it prints `done` and the
/// journal's records (`id state transactionId finished`), one a line, once idle.
@main
struct StoreKitPlayer {
    static func main() async {
        do {
            try await run(Options(CommandLine.arguments.dropFirst()))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("storekit-player: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func run(_ options: Options) async throws {
        let data = URL(fileURLWithPath: options.data)
        let storeKitData = data.appendingPathComponent("storekit")
        try FileManager.default.createDirectory(at: storeKitData, withIntermediateDirectories: true)
        setenv("STOREKEEPER_STOREKIT_URL", options.server.absoluteString, 1)
        setenv("STOREKEEPER_STOREKIT_DEVICE", options.device, 1)
        setenv("STOREKEEPER_STOREKIT_DATA", storeKitData.path, 1)

        let journal = data.appendingPathComponent("journal")
        let pauseAt = options.pauseAt
        let token = options.token
        let configuration = PipelineConfiguration(
            store: StoreKitAPI.storeClient(options.api),
            journal: FilePurchaseJournal(url: journal),
            server: PurchaseServerClient(baseURL: options.server),
            tokens: { _ in token },
            retry: RetryPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200)),
            hooks: PipelineHooks { boundary, _ in
                guard boundary == pauseAt else { return }
                say("paused \(boundary.rawValue)")
                while true { try await Task.sleep(for: .seconds(3600)) }
            },
            entitlementCache: FileEntitlementCache(besideJournalAt: journal))
        let pipeline = PurchasePipeline(configuration: configuration, playerId: options.player)
        try await pipeline.start()
        if let productId = options.buy { _ = try await pipeline.purchase(productId: productId) }
        await pipeline.waitUntilIdle()
        say("done")
        for record in await pipeline.allRecords() {
            say("\(record.id) \(record.state.name) \(record.transactionId ?? "-") \(record.transactionFinished)")
        }
        await pipeline.stop()
    }
}

/// Prints a line to standard output at once (no buffer: the test reads it while the
/// process runs).
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// `storekit-player`'s command line.
struct Options {
    var server: URL
    var token: String
    var player: String
    var data: String
    var device: String
    var api = StoreKitAPI.storeKit2
    var buy: String?
    var pauseAt: PipelineBoundary?

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    init(_ arguments: ArraySlice<String>) throws {
        var values: [String: String] = [:]
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard name.hasPrefix("--"), let value = iterator.next() else { throw Invalid(description: "bad \(name)") }
            values[String(name.dropFirst(2))] = value
        }
        func required(_ name: String) throws -> String {
            guard let value = values[name] else { throw Invalid(description: "--\(name) is required") }
            return value
        }
        guard let server = URL(string: try required("server")) else { throw Invalid(description: "bad --server") }
        self.server = server
        token = try required("token")
        player = try required("player")
        data = try required("data")
        device = try required("device")
        switch values["api"] {
        case nil, "2": api = .storeKit2
        case "1": api = .storeKit1
        case let other?: throw Invalid(description: "--api is 1 or 2, not \(other)")
        }
        buy = values["buy"]
        if let boundary = values["pause-at"] {
            guard let value = PipelineBoundary(rawValue: boundary) else {
                throw Invalid(description: "unknown boundary \(boundary)")
            }
            pauseAt = value
        }
    }
}
