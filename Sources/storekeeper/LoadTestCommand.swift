import ArgumentParser
import Foundation
import PurchaseServer

/// `storekeeper loadtest`: drives the whole purchase path against a running
/// `storekeeper serve --dev` and reports deliveries per second, latencies and errors;
/// with `--prepared N`, only the server's delivery path (reports of purchases charged
/// beforehand); with `--orders-only`, only order creation.
struct LoadTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loadtest",
        abstract: "Load-test a `serve --dev` server: order, charge on the emulator, report, repeatedly.",
        discussion: """
            Each of --concurrency workers loops until --seconds pass: POST /v1/orders as one of \
            --players players, POST /emulator/v1/devices/{device}/purchases with the order's \
            appAccountToken (one device per worker), POST /v1/purchases with the signed \
            transaction, then finishes the transaction on the device. A report answered \
            delivered or already_delivered is a delivery; anything else is an error, counted \
            by kind. Exit status 0 when there were no errors, 1 otherwise.

            With --prepared N the emulator is left out of the measurement: for the whole run \
            the emulator's notifications are off (drop rate 1) and its notification history \
            fails (so the server's reconciler cannot deliver either), the previous faults being \
            restored at the end. First, untimed, N purchases are ordered and charged with \
            --concurrency workers; then the workers report them (POST /v1/purchases) until all \
            are reported, timed. Only delivered \
            counts; already_delivered (a race) and anything else fail the run. Exit status 0 \
            when every prepared purchase was delivered exactly once, without errors.

            With --orders-only the workers only create orders (POST /v1/orders) for --seconds.
            """
    )

    @Option(help: "The server's base URL (its --dev emulator answers on the same port).")
    var url: String = "http://127.0.0.1:8080"

    @Option(help: "Concurrent workers, each on its own connection and device.")
    var concurrency: Int = 8

    @Option(help: "How long to start new purchases, in seconds.")
    var seconds: Double = 10

    @Option(help: "The server's player token secret.")
    var playerSecret: String = "dev-player-secret"

    @Option(help: "The product to buy (a consumable of the emulator's catalog).")
    var product: String = "coins100"

    @Option(help: "Distinct players, shared round-robin by the workers (default: one per worker).")
    var players: Int?

    @Option(
        help: ArgumentHelp(
            "Prepare N purchases untimed (order + charge, notifications off), then time only their reports.",
            valueName: "N"))
    var prepared: Int?

    @Flag(help: "Time only order creation (POST /v1/orders) for --seconds.")
    var ordersOnly = false

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func validate() throws {
        guard concurrency > 0 else { throw ValidationError("--concurrency must be positive") }
        try SecondsOption.check(seconds, "--seconds")
        guard (players ?? 1) > 0 else { throw ValidationError("--players must be positive") }
        guard (prepared ?? 1) > 0 else { throw ValidationError("--prepared must be positive") }
        guard prepared == nil || !ordersOnly else {
            throw ValidationError("--prepared and --orders-only are different runs: pick one")
        }
        guard let parsed = URL(string: url), parsed.scheme == "http" || parsed.scheme == "https", parsed.host != nil
        else { throw ValidationError("--url must be an http(s) URL, e.g. http://127.0.0.1:8080") }
    }

    /// The base URL without a trailing slash.
    var baseURL: String { url.hasSuffix("/") ? String(url.dropLast()) : url }

    /// The number of distinct players.
    var playerCount: Int { players ?? concurrency }

    /// One bearer token per player.
    func playerTokens() -> [String] {
        (0..<playerCount).map {
            PlayerTokenVerifier.issue(playerId: "loadtest-\($0)", secret: playerSecret, lifetime: seconds + 3_600)
        }
    }

    func run() async throws {
        let report: LoadTestReport
        if let prepared {
            report = try await runPrepared(prepared)
        } else if ordersOnly {
            report = try await runOrdersOnly()
        } else {
            report = try await runFull()
        }
        print(json ? try report.json() : report.text)
        let passed = report.mode == .prepared ? report.deliveredEveryPreparedPurchaseOnce : report.errors == 0
        if !passed { throw ExitCode.rejected }
    }

    /// The default run: order, charge and report until `--seconds` pass.
    private func runFull() async throws -> LoadTestReport {
        let tokens = playerTokens()
        // Fresh devices each run: a device's receipt lists what it bought.
        let run = UUID().uuidString.prefix(8).lowercased()
        let client = LoadTestClient(baseURL: baseURL, connections: concurrency)
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int(seconds * 1_000)))
        let tally = await withTaskGroup(of: LoadTestTally.self) { group in
            for index in 0..<concurrency {
                let worker = LoadTestWorker(
                    client: client, token: tokens[index % playerCount], deviceId: "loadtest-\(run)-\(index)",
                    productId: product, deadline: deadline)
                group.addTask { await worker.run() }
            }
            var total = LoadTestTally()
            for await tally in group { total.merge(tally) }
            return total
        }
        let elapsed = clock.now - start
        try await client.shutdown()

        return LoadTestReport(
            tally, elapsed: elapsed, url: baseURL, productId: product, concurrency: concurrency, players: playerCount)
    }
}
