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
            appAccountToken and no app receipt (one device per worker), POST /v1/purchases with the signed \
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

            With --prepared N --export-wrk DIR the purchases are prepared the same way but not \
            reported: DIR/purchases.tsv gets one line per purchase (player token, a tab, the JSON \
            body of its POST /v1/purchases) for Scripts/perf/wrk-report.lua, DIR/faults-before.json \
            the emulator's faults to put back afterwards (notifications stay off until then), and \
            the wrk command to run is printed.

            With --orders-only the workers only create orders (POST /v1/orders) for --seconds.

            Every run also reports the server's CPU time (user + system, from /proc/<pid>/stat) \
            and the load generator's own during the timed phase, per delivery, the load average \
            at its start and end, and the P-256 floor: one ES256 verification of a 5 KB signing \
            input, timed in this process for 1 s before the timed phase (as `storekeeper bench` \
            times "p256-verify (floor)"), with the ratio of the server's CPU time per delivery to \
            it. The server is --server-pid, or else, when the URL's host is loopback, the process \
            listening on the URL's port; otherwise its CPU time is reported unknown.
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

    @Option(
        help: ArgumentHelp(
            "The server's pid, for its CPU time (default: the process listening on the URL's loopback port).",
            valueName: "pid"))
    var serverPid: Int32?

    @Option(
        help: ArgumentHelp(
            "With --prepared: write the prepared reports to DIR for wrk (Scripts/perf/wrk-report.lua) "
                + "instead of sending them.",
            valueName: "DIR"))
    var exportWrk: String?

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
        guard exportWrk == nil || prepared != nil else { throw ValidationError("--export-wrk needs --prepared N") }
        guard exportWrk?.isEmpty != true else { throw ValidationError("--export-wrk needs a folder") }
        guard (serverPid ?? 1) > 0 else { throw ValidationError("--server-pid must be positive") }
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

    /// How long the P-256 floor is timed before the timed phase, in seconds.
    static let floorSeconds: Double = 1

    func run() async throws {
        let server = LoadTestServerProcess.resolve(url: baseURL, given: serverPid)
        if let exportWrk, let prepared {
            try await runExport(prepared, to: URL(fileURLWithPath: exportWrk), server: server)
            return
        }
        let report: LoadTestReport
        if let prepared {
            report = try await runPrepared(prepared, server: server)
        } else if ordersOnly {
            report = try await runOrdersOnly(server: server)
        } else {
            report = try await runFull(server: server)
        }
        print(json ? try report.json() : report.text)
        let passed = report.mode == .prepared ? report.deliveredEveryPreparedPurchaseOnce : report.errors == 0
        if !passed { throw ExitCode.rejected }
    }

    /// The default run: order, charge and report until `--seconds` pass.
    private func runFull(server: LoadTestServerProcess) async throws -> LoadTestReport {
        let floor = try await LoadTestFloor.measure(seconds: Self.floorSeconds)
        let tokens = playerTokens()
        // Fresh devices each run: a device's receipt lists what it bought.
        let run = UUID().uuidString.prefix(8).lowercased()
        let client = LoadTestClient(baseURL: baseURL, connections: concurrency)
        let clock = ContinuousClock()
        let meter = LoadTestCPUMeter(server: server)
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
        let cpu = meter.stop(deliveries: tally.deliveries)
        try await client.shutdown()

        return LoadTestReport(
            tally, elapsed: elapsed, url: baseURL, productId: product, concurrency: concurrency, players: playerCount,
            cpu: cpu, floor: floor)
    }
}
