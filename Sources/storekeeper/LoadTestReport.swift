import Foundation

/// What `storekeeper loadtest` measures.
enum LoadTestMode: String, Encodable, Sendable {
    /// Order, emulator charge and report, again and again (the default).
    case full
    /// Reports of purchases ordered and charged beforehand (`--prepared N`): the
    /// purchase server's delivery path without the emulator.
    case prepared
    /// Orders only (`--orders-only`).
    case ordersOnly = "orders-only"
}

/// The summary `storekeeper loadtest` prints: throughput, latency percentiles per phase
/// and errors by kind.
struct LoadTestReport: Encodable {
    /// Percentiles of one phase's latencies, in milliseconds.
    struct Latency: Encodable {
        var count: Int
        var p50: Double
        var p90: Double
        var p99: Double
        var max: Double

        /// Percentiles of `samples` (nearest rank on the sorted samples).
        init?(_ samples: [Duration]) {
            guard !samples.isEmpty else { return nil }
            let sorted = samples.sorted()
            func rank(_ fraction: Double) -> Double {
                let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
                return Self.milliseconds(sorted[Swift.max(0, Swift.min(sorted.count - 1, index))])
            }
            count = sorted.count
            p50 = rank(0.50)
            p90 = rank(0.90)
            p99 = rank(0.99)
            max = Self.milliseconds(sorted[sorted.count - 1])
        }

        private static func milliseconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        }
    }

    var mode: LoadTestMode
    var url: String
    var productId: String
    var concurrency: Int
    var players: Int
    /// From the first request to the last answer, in seconds.
    var elapsedSeconds: Double
    /// Purchases prepared before the timed phase (`prepared` mode only).
    var prepared: Int?
    /// How long preparing took, untimed otherwise (`prepared` mode only).
    var preparationSeconds: Double?
    /// Reports answered `delivered` or `already_delivered` (in `prepared` mode only
    /// `delivered`: there `already_delivered` is a race).
    var deliveries: Int
    var delivered: Int
    var alreadyDelivered: Int
    var deliveriesPerSecond: Double
    /// Orders created per second (`orders-only` mode only).
    var ordersPerSecond: Double?
    var errors: Int
    var errorsByKind: [String: Int]
    /// Latencies per ``LoadTestPhase`` (raw value), in milliseconds.
    var latencyMilliseconds: [String: Latency]
    /// The server's and the load generator's CPU time during the timed phase, and the load
    /// average at its start and end.
    var cpu: LoadTestCPU
    /// One P-256 signature verification, timed in the load generator before the timed phase.
    var floor: LoadTestFloor
    /// The server's CPU time per delivery over ``floor``'s p50: how many P-256 verifications
    /// a delivery costs the server (when its CPU time is known and there were deliveries).
    var serverCPUPerDeliveryToFloor: Double?

    init(
        _ tally: LoadTestTally, elapsed: Duration, url: String, productId: String, concurrency: Int, players: Int,
        cpu: LoadTestCPU, floor: LoadTestFloor, mode: LoadTestMode = .full, prepared: Int? = nil,
        preparation: Duration? = nil
    ) {
        self.cpu = cpu
        self.floor = floor
        serverCPUPerDeliveryToFloor = cpu.serverMicrosecondsPerDelivery.flatMap {
            floor.p50Microseconds > 0 ? $0 / floor.p50Microseconds : nil
        }
        elapsedSeconds = Self.seconds(elapsed)
        self.mode = mode
        self.prepared = prepared
        preparationSeconds = preparation.map(Self.seconds)
        self.url = url
        self.productId = productId
        self.concurrency = concurrency
        self.players = players
        deliveries = mode == .prepared ? tally.delivered : tally.deliveries
        delivered = tally.delivered
        alreadyDelivered = tally.alreadyDelivered
        deliveriesPerSecond = elapsedSeconds > 0 ? Double(deliveries) / elapsedSeconds : 0
        if mode == .ordersOnly {
            let orders = tally.samples[.order]?.count ?? 0
            ordersPerSecond = elapsedSeconds > 0 ? Double(orders) / elapsedSeconds : 0
        }
        errors = tally.errorCount
        errorsByKind = tally.errors
        latencyMilliseconds = [:]
        for phase in LoadTestPhase.allCases {
            latencyMilliseconds[phase.rawValue] = Latency(tally.samples[phase] ?? [])
        }
    }

    /// Whether a `prepared` run delivered every purchase exactly once, without errors.
    var deliveredEveryPreparedPurchaseOnce: Bool {
        errors == 0 && alreadyDelivered == 0 && delivered == prepared
    }

    /// The report for people: a few lines and a latency table.
    var text: String {
        var lines = [
            "loadtest \(url) (\(mode.rawValue)): \(concurrency) workers, \(players) players, product \(productId), "
                + String(format: "%.1f s", elapsedSeconds)
        ]
        switch mode {
        case .full:
            lines.append(
                String(
                    format: "deliveries: %d (%d delivered, %d already_delivered), %.1f/s", deliveries, delivered,
                    alreadyDelivered, deliveriesPerSecond))
        case .prepared:
            lines.append(
                String(
                    format: "prepared: %d (untimed, %.1f s, emulator notifications off)", prepared ?? 0,
                    preparationSeconds ?? 0))
            lines.append(
                String(
                    format: "deliveries: %d delivered, %.1f/s; already_delivered (a race): %d", delivered,
                    deliveriesPerSecond, alreadyDelivered))
        case .ordersOnly:
            lines.append(
                String(format: "orders: %d, %.1f/s", latencyMilliseconds["order"]?.count ?? 0, ordersPerSecond ?? 0))
        }
        lines.append("errors: \(errors)")
        for (kind, count) in errorsByKind.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            lines.append("  \(count)  \(kind)")
        }
        lines.append("latency ms      count      p50      p90      p99      max")
        for phase in LoadTestPhase.allCases {
            guard let latency = latencyMilliseconds[phase.rawValue] else { continue }
            lines.append(
                phase.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                    + String(
                        format: "%11d %8.2f %8.2f %8.2f %8.2f", latency.count, latency.p50, latency.p90, latency.p99,
                        latency.max))
        }
        switch mode {
        case .full:
            lines.append("(path = order + charge + report of a delivered purchase; finish is timed apart)")
        case .prepared:
            lines.append(
                "(the server's delivery path without the emulator: report = POST /v1/purchases, i.e. JWS "
                    + "verification, binding to the order and the exactly-once ledger transaction)")
        case .ordersOnly:
            lines.append("(order = POST /v1/orders: one ledger transaction, the order row and its history event)")
        }
        lines.append(contentsOf: cpuLines)
        return lines.joined(separator: "\n")
    }

    /// The CPU and floor lines of ``text``.
    private var cpuLines: [String] {
        var lines: [String] = []
        if let seconds = cpu.serverSeconds, let pid = cpu.serverPid {
            lines.append(
                String(format: "server CPU: %.2f s", seconds)
                    + (cpu.serverMicrosecondsPerDelivery.map { String(format: ", %.1f µs per delivery", $0) } ?? "")
                    + " (pid \(pid), \(cpu.serverNote); user + system, timed phase only)")
        } else {
            lines.append("server CPU: unknown (\(cpu.serverNote))")
        }
        if let seconds = cpu.loadGeneratorSeconds {
            lines.append(
                String(format: "load generator CPU: %.2f s", seconds)
                    + (cpu.loadGeneratorMicrosecondsPerDelivery.map { String(format: ", %.1f µs per delivery", $0) }
                        ?? ""))
        }
        lines.append(
            String(
                format: "P-256 floor: %.1f µs per verify (p50; mean %.1f µs, %d verifies of a %d-byte signing input, "
                    + "timed here before the timed phase)", floor.p50Microseconds, floor.meanMicroseconds,
                floor.verifies, floor.signingInputBytes))
        if let ratio = serverCPUPerDeliveryToFloor {
            lines.append(String(format: "server CPU per delivery / P-256 floor: %.2f", ratio))
        }
        func average(_ load: LoadTestLoadAverage?) -> String {
            load.map { String(format: "%.2f %.2f %.2f", $0.oneMinute, $0.fiveMinutes, $0.fifteenMinutes) } ?? "unknown"
        }
        lines.append(
            "load average (1, 5, 15 min): \(average(cpu.loadAverageStart)) at the start, "
                + "\(average(cpu.loadAverageEnd)) at the end")
        return lines
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The report as one JSON object.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
