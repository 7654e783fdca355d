import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program the tests start (`openssl`, PostgreSQL's tools, `storekeeper` itself), spawned
/// with `posix_spawn` and waited for with `waitpid`.
///
/// Foundation's `Process` is not used: on Linux it lists `/proc/self/fd` before every launch
/// and copies a fixed 256 bytes out of each directory entry, which reads past the end of
/// the listing buffer once the test process holds about 1,360 descriptors (the whole suite
/// running in parallel holds up to 1,600), and a CI run crashed there (SIGSEGV in
/// `Process.run()`). Here the child closes every inherited descriptor above 2 itself
/// (`posix_spawn_file_actions_addclosefrom_np`), so no listing is needed, and a daemon the
/// child leaves behind (`pg_ctl start`) holds none of the test process's sockets.
public struct ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case nullDevice
        /// A file, created or truncated.
        case file(String)
        /// One of the test process's open descriptors (a pipe's end), duplicated.
        case descriptor(Int32)
        /// The same place as the child's standard output (for standard error only).
        case standardOutput
    }

    /// How the child ended.
    public enum Termination: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// Whether it exited with status 0.
        public var succeeded: Bool { self == .exited(0) }

        /// The status a shell would report: the exit status, or 128 plus the signal's number.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }
    }

    /// A failure to start the child.
    public struct SpawnFailure: Error, CustomStringConvertible {
        /// The program.
        public var executable: String
        /// The `errno` of the failure.
        public var code: Int32

        public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
    }

    /// The child's process id.
    public let pid: pid_t

    /// Starts `executable` with `arguments` in `directory` (the test process's own when
    /// nil), in a process group of its own, with the test process's environment.
    public static func spawn(
        _ executable: String,
        _ arguments: [String],
        directory: String? = nil,
        standardInput: Stream = .nullDevice,
        standardOutput: Stream = .nullDevice,
        standardError: Stream = .nullDevice
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        try redirect(&actions, standardInput, to: STDIN_FILENO, executable: executable)
        try redirect(&actions, standardOutput, to: STDOUT_FILENO, executable: executable)
        try redirect(&actions, standardError, to: STDERR_FILENO, executable: executable)
        try check(addCloseFrom(&actions, 3), executable)
        if let directory {
            try check(addChangeDirectory(&actions, directory), executable)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        try check(posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP)), executable)
        try check(posix_spawnattr_setpgroup(&attributes, 0), executable)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        try check(posix_spawn(&pid, executable, &actions, &attributes, argv, environ), executable)
        return ChildProcess(pid: pid)
    }

    /// Waits for the child to end, on a thread of its own (the cooperative threads stay free).
    public func wait() async -> Termination {
        await withCheckedContinuation { continuation in
            let waiter = Thread { continuation.resume(returning: waitBlocking()) }
            waiter.start()
        }
    }

    /// Waits for the child to end, blocking the calling thread.
    public func waitBlocking() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// Reaps the child on a thread of its own whenever it ends, for a child nobody waits for.
    public func reapWhenDone() {
        Thread { _ = waitBlocking() }.start()
    }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) {
        _ = kill(pid, signal)
    }

    private static func redirect(
        _ actions: inout posix_spawn_file_actions_t, _ stream: Stream, to target: Int32, executable: String
    ) throws {
        let result: Int32
        switch stream {
        case .nullDevice:
            result = posix_spawn_file_actions_addopen(
                &actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        case .file(let path):
            result = posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .descriptor(let descriptor):
            result = posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        case .standardOutput:
            result = posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, target)
        }
        try check(result, executable)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run
    /// time: the Glibc module does not export it.
    private static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Int32 {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), looked up at run time
    /// like ``addCloseFrom(_:_:)``.
    private static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) -> Int32 {
        typealias AddChangeDirectory =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddChangeDirectory.self)(&actions, path)
    }

    private static func check(_ result: Int32, _ executable: String) throws {
        guard result == 0 else { throw SpawnFailure(executable: executable, code: result) }
    }
}
