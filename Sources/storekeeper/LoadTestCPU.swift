/// The CPU time around a load test's timed phase: the server's and the load generator's
/// own, in all and per delivery, and the machine's load average at the start and the end.
///
/// Linux counts CPU time in clock ticks (usually 10 ms each), so a short phase reads
/// coarsely.
struct LoadTestCPU: Encodable, Sendable {
    /// The server's pid, when known.
    var serverPid: Int32?
    /// How the server's pid was found, or why its CPU time is unknown.
    var serverNote: String
    /// The server's CPU time (user and system) during the timed phase, when known.
    var serverSeconds: Double?
    /// ``serverSeconds`` per delivery, in microseconds (when there were deliveries).
    var serverMicrosecondsPerDelivery: Double?
    /// The load generator's (this process's) CPU time during the timed phase.
    var loadGeneratorSeconds: Double?
    /// ``loadGeneratorSeconds`` per delivery, in microseconds (when there were deliveries).
    var loadGeneratorMicrosecondsPerDelivery: Double?
    /// The load average when the timed phase started.
    var loadAverageStart: LoadTestLoadAverage?
    /// The load average when it ended.
    var loadAverageEnd: LoadTestLoadAverage?
}

/// Reads the server's and this process's CPU time and the load average when made (at the
/// start of the timed phase) and again in ``stop(deliveries:)`` (at its end).
struct LoadTestCPUMeter: Sendable {
    let server: LoadTestServerProcess
    private let serverStart: ProcessCPUTime?
    private let generatorStart: ProcessCPUTime?
    private let loadAverageStart: LoadTestLoadAverage?

    /// Starts measuring `server` (its CPU time stays unknown when its pid is).
    init(server: LoadTestServerProcess) {
        self.server = server
        loadAverageStart = LoadTestLoadAverage.read()
        serverStart = server.pid.flatMap { ProcessCPUTime.read(pid: $0) }
        generatorStart = ProcessCPUTime.read(pid: nil)
    }

    /// The CPU time used since the meter was made, per delivery of the `deliveries` made
    /// meanwhile.
    func stop(deliveries: Int) -> LoadTestCPU {
        let generatorEnd = ProcessCPUTime.read(pid: nil)
        let serverEnd = server.pid.flatMap { ProcessCPUTime.read(pid: $0) }
        var cpu = LoadTestCPU(
            serverPid: server.pid, serverNote: server.note, loadAverageStart: loadAverageStart,
            loadAverageEnd: LoadTestLoadAverage.read())
        if let pid = server.pid {
            if let serverStart, let serverEnd {
                cpu.serverSeconds = serverEnd.seconds(since: serverStart)
                if cpu.serverSeconds == nil { cpu.serverNote += "; process \(pid) was not the same at the end" }
            } else {
                cpu.serverNote += "; /proc/\(pid)/stat could not be read"
            }
        }
        if let generatorStart, let generatorEnd {
            cpu.loadGeneratorSeconds = generatorEnd.seconds(since: generatorStart)
        }
        if deliveries > 0 {
            cpu.serverMicrosecondsPerDelivery = cpu.serverSeconds.map { $0 * 1e6 / Double(deliveries) }
            cpu.loadGeneratorMicrosecondsPerDelivery = cpu.loadGeneratorSeconds.map { $0 * 1e6 / Double(deliveries) }
        }
        return cpu
    }
}
