#if canImport(Glibc)
    import Glibc
#endif

/// The CPU time a process has used since it started, user and system, as Linux's
/// `/proc/<pid>/stat` counts it (in clock ticks).
struct ProcessCPUTime: Equatable, Sendable {
    /// Clock ticks spent in user mode (`utime`, field 14).
    var userTicks: UInt64
    /// Clock ticks spent in the kernel on the process's behalf (`stime`, field 15).
    var systemTicks: UInt64
    /// When the process started, in clock ticks after boot (`starttime`, field 22): tells
    /// a process from a later one that got the same pid.
    var startTicks: UInt64

    /// User and system ticks together.
    var ticks: UInt64 { userTicks &+ systemTicks }

    /// Clock ticks per second (`sysconf(_SC_CLK_TCK)`, usually 100); `nil` when unknown.
    static let ticksPerSecond: Int? = {
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return ticks > 0 ? ticks : nil
    }()

    /// Parses the one line of `/proc/<pid>/stat`; `nil` when it is not such a line.
    ///
    /// Field 2, the process's name, is in parentheses and may itself hold spaces and
    /// parentheses (`1234 (my (odd) name) S 1 …`), so the fields are counted from the
    /// line's last `)`: the state (field 3) is the first after it.
    init?(statLine: String) {
        guard let nameEnd = statLine.lastIndex(of: ")") else { return nil }
        let fields = statLine[statLine.index(after: nameEnd)...].split(whereSeparator: \.isWhitespace)
        // Field n is at index n - 3.
        guard fields.count > 22 - 3, let user = UInt64(fields[14 - 3]), let system = UInt64(fields[15 - 3]),
            let start = UInt64(fields[22 - 3])
        else { return nil }
        userTicks = user
        systemTicks = system
        startTicks = start
    }

    /// The CPU time of process `pid`, or of this process when `pid` is `nil`; `nil` when
    /// its `/proc` entry cannot be read (no such process, not Linux) or parsed.
    static func read(pid: Int32?) -> ProcessCPUTime? {
        let path = "/proc/" + (pid.map { "\($0)" } ?? "self") + "/stat"
        return LoadTestProcFile.text(path).flatMap { ProcessCPUTime(statLine: $0) }
    }

    /// The seconds of CPU time used between `earlier` and this reading of the same process;
    /// `nil` when they belong to different processes (the pid was reused) or the clock
    /// ticks per second are unknown.
    func seconds(since earlier: ProcessCPUTime) -> Double? {
        guard startTicks == earlier.startTicks, ticks >= earlier.ticks, let perSecond = Self.ticksPerSecond else {
            return nil
        }
        return Double(ticks - earlier.ticks) / Double(perSecond)
    }
}
