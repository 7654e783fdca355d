import ArgumentParser
import Foundation

extension LoadTestCommand {
    /// `--prepared N`: prepares `count` purchases untimed, then times only their reports.
    ///
    /// For the whole run the emulator's notifications are off and its notification
    /// history fails, so neither a notification nor the server's reconciler delivers a
    /// prepared purchase before its report; the previous faults are restored at the end.
    /// Purchase `i` belongs to player `i % players` and is prepared and reported by worker
    /// `i % concurrency`, so each worker keeps its own share and nothing is shared while
    /// the load runs.
    func runPrepared(_ count: Int, server: LoadTestServerProcess) async throws -> LoadTestReport {
        let client = LoadTestClient(baseURL: baseURL, connections: concurrency)
        do {
            let previousFaults = try await LoadTestNotificationSwitch.silence(using: client)
            let outcome = await preparedRun(count, client: client, server: server)
            try await LoadTestNotificationSwitch.restore(previousFaults, using: client)
            try await client.shutdown()
            return try outcome.get()
        } catch let failure as LoadTestClient.Failure {
            try? await client.shutdown()
            log("loadtest --prepared: \(failure.kind)")
            throw ExitCode.rejected
        }
    }

    /// Prepares, then reports, with the emulator's faults already set.
    private func preparedRun(
        _ count: Int, client: LoadTestClient, server: LoadTestServerProcess
    ) async -> Result<LoadTestReport, LoadTestClient.Failure> {
        let shares: [[PreparedPurchase]]
        let preparation: Duration
        switch await prepareAll(count, client: client) {
        case .success(let prepared): (shares, preparation) = prepared
        case .failure(let failure): return .failure(failure)
        }
        log("prepared in \(Int(preparation.components.seconds)) s; timing the P-256 floor, then reporting them (timed)")
        let floor: LoadTestFloor
        do {
            floor = try await LoadTestFloor.measure(seconds: Self.floorSeconds)
        } catch {
            return .failure(.init(kind: "floor: \(error)"))
        }

        let clock = ContinuousClock()
        let meter = LoadTestCPUMeter(server: server)
        let start = clock.now
        let tally = await withTaskGroup(of: LoadTestTally.self) { group in
            for share in shares {
                let reporter = LoadTestReporter(client: client, purchases: share)
                group.addTask { await reporter.run() }
            }
            var total = LoadTestTally()
            for await tally in group { total.merge(tally) }
            return total
        }
        let elapsed = clock.now - start
        return .success(
            LoadTestReport(
                tally, elapsed: elapsed, url: baseURL, productId: product, concurrency: concurrency,
                players: playerCount, cpu: meter.stop(deliveries: tally.delivered), floor: floor, mode: .prepared,
                prepared: count, preparation: preparation))
    }

    /// Prepares `count` purchases, untimed, with the emulator's faults already set: one
    /// share per worker, in worker order, and how long it took; fails when any could not be
    /// prepared.
    func prepareAll(
        _ count: Int, client: LoadTestClient
    ) async -> Result<(shares: [[PreparedPurchase]], preparation: Duration), LoadTestClient.Failure> {
        let clock = ContinuousClock()
        log("preparing \(count) purchases with \(concurrency) workers (untimed, emulator notifications off)")
        let preparationStart = clock.now
        let shares = await prepare(count, tokens: playerTokens(), client: client)
        let preparation = clock.now - preparationStart
        let preparationErrors = shares.reduce(into: LoadTestTally()) { $0.merge($1.tally) }
        guard preparationErrors.errorCount == 0 else {
            for (kind, number) in preparationErrors.errors.sorted(by: { $0.key < $1.key }) {
                log("  \(number)  \(kind)")
            }
            return .failure(.init(kind: "preparation failed: \(preparationErrors.errorCount) errors"))
        }
        return .success((shares.map(\.purchases), preparation))
    }

    /// Prepares the purchases, one share per worker, in worker order.
    private func prepare(
        _ count: Int, tokens: [String], client: LoadTestClient
    ) async -> [(purchases: [PreparedPurchase], tally: LoadTestTally)] {
        // Fresh devices each run: a device's receipt lists what it bought.
        let run = UUID().uuidString.prefix(8).lowercased()
        return await withTaskGroup(of: (Int, [PreparedPurchase], LoadTestTally).self) { group in
            for worker in 0..<concurrency {
                let preparer = LoadTestPreparer(
                    client: client, deviceId: "loadtest-\(run)-prepare-\(worker)", productId: product,
                    tokens: stride(from: worker, to: count, by: concurrency).map { tokens[$0 % tokens.count] })
                group.addTask {
                    let (purchases, tally) = await preparer.run()
                    return (worker, purchases, tally)
                }
            }
            var shares = [(purchases: [PreparedPurchase], tally: LoadTestTally)](
                repeating: ([], LoadTestTally()), count: concurrency)
            for await (worker, purchases, tally) in group { shares[worker] = (purchases, tally) }
            return shares
        }
    }

    /// `--orders-only`: creates orders until `--seconds` pass.
    func runOrdersOnly(server: LoadTestServerProcess) async throws -> LoadTestReport {
        let floor = try await LoadTestFloor.measure(seconds: Self.floorSeconds)
        let tokens = playerTokens()
        let client = LoadTestClient(baseURL: baseURL, connections: concurrency)
        let clock = ContinuousClock()
        let meter = LoadTestCPUMeter(server: server)
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int(seconds * 1_000)))
        let tally = await withTaskGroup(of: LoadTestTally.self) { group in
            for index in 0..<concurrency {
                let worker = LoadTestOrderWorker(
                    client: client, token: tokens[index % tokens.count], productId: product, deadline: deadline)
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
            cpu: cpu, floor: floor, mode: .ordersOnly)
    }

    /// Progress for people, on standard error (standard output carries the report).
    func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
