import Foundation
import TestProcesses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A throwaway PostgreSQL cluster for the tests, started on first use and shared by every
/// test of this process; each test gets its own database, so tests run in parallel.
///
/// The cluster lives in a temporary directory, listens on 127.0.0.1 at a random free port
/// with trust authentication, and is stopped and removed by a watchdog shortly after this
/// process exits (however it exits). Run as root, the PostgreSQL tools run as the
/// `postgres` user (`runuser`). Binaries come from `$STOREKEEPER_PG_BIN` (only there, when
/// set), else `/usr/lib/postgresql/*/bin` (newest), else `PATH`. Without them every PostgreSQL test
/// fails, saying so: CI installs Debian's `postgresql` package.
public actor PostgresCluster {
    /// The process's cluster.
    public static let shared = PostgresCluster()

    /// A started cluster.
    public struct Running: Sendable {
        /// The directory holding `initdb`, `pg_ctl`, `psql`.
        var binDirectory: String
        /// The cluster's directory (data, log, socket).
        var directory: String
        /// The TCP port on 127.0.0.1.
        public var port: Int
    }

    /// The PostgreSQL tools are missing.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    private var starting: Task<Running, any Error>?
    private var databaseCount = 0

    /// The running cluster, started on first call.
    public func running() async throws -> Running {
        StallWatchdog.startOnce()
        if let starting { return try await starting.value }
        let task = Task { try await Self.start() }
        starting = task
        return try await task.value
    }

    /// Creates a new, empty database and returns its URL.
    public func createDatabase(maximumConnections: Int = 8) async throws -> (url: String, name: String) {
        let cluster = try await running()
        databaseCount += 1
        let name = "ledger_test_\(databaseCount)_\(UUID().uuidString.prefix(8).lowercased())"
        try await psql(cluster, database: "postgres", "CREATE DATABASE \(name)")
        let url = "postgres://postgres@127.0.0.1:\(cluster.port)/\(name)?max_connections=\(maximumConnections)"
        return (url, name)
    }

    /// How many server connections are open to `database`.
    public func connectionCount(database: String) async throws -> Int {
        let cluster = try await running()
        let output = try await psql(
            cluster,
            database: "postgres",
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'"
        )
        return Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Runs one of the cluster's client tools (`pg_dump`, `pg_restore`, `createdb`…) as the
    /// superuser against the cluster: `arguments` follow the connection options.
    @discardableResult
    public func runTool(_ tool: String, _ arguments: [String]) async throws -> String {
        let cluster = try await running()
        return try await ShellCommand(
            executable: "\(cluster.binDirectory)/\(tool)",
            arguments: ["-h", "127.0.0.1", "-p", String(cluster.port), "-U", "postgres"] + arguments
        ).run()
    }

    /// The cluster's server log from byte `offset` on, and the offset where it ends now (a
    /// test reads what the server logged while it ran, e.g. `auto_explain`'s plans).
    public func serverLog(from offset: UInt64 = 0) async throws -> (text: String, end: UInt64) {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "\(try await running().directory)/server.log"))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        let data = try handle.readToEnd() ?? Data()
        return (String(decoding: data, as: UTF8.self), offset + UInt64(data.count))
    }

    /// Runs `sql` on `database` as the superuser (a test's direct change behind the store's back).
    public func execute(database: String, _ sql: String) async throws {
        try await psql(try await running(), database: database, sql)
    }

    @discardableResult
    private func psql(_ cluster: Running, database: String, _ sql: String) async throws -> String {
        try await ShellCommand(
            executable: "\(cluster.binDirectory)/psql",
            arguments: [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(cluster.port),
                "-U", "postgres", "-d", database, "-c", sql,
            ]
        ).run()
    }

    // MARK: Start-up

    private static func start() async throws -> Running {
        let binDirectory = try findBinaries()
        let asPostgres = getuid() == 0
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("storekeeper-ledger-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if asPostgres {
            try await ShellCommand(executable: "/bin/chown", arguments: ["postgres:postgres", directory]).run()
        }
        let data = "\(directory)/data"
        let pgCtl = "\(binDirectory)/pg_ctl"
        try startWatchdog(directory: directory, data: data, pgCtl: pgCtl, asPostgres: asPostgres)

        try await tool(
            "\(binDirectory)/initdb",
            ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"],
            asPostgres: asPostgres,
            directory: directory
        ).run()

        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<32_000)  // below the ephemeral ports of client connections
            let options = [
                "-p \(port)", "-k \(directory)", "-c listen_addresses=127.0.0.1", "-c max_connections=1000",
                "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
            ].joined(separator: " ")
            do {
                try await tool(
                    pgCtl,
                    ["-D", data, "-l", "\(directory)/server.log", "-w", "-t", "60", "-o", options, "start"],
                    asPostgres: asPostgres,
                    directory: directory
                ).run()
                return Running(binDirectory: binDirectory, directory: directory, port: port)
            } catch {
                // Most likely the port was taken: try another.
                let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
                lastError = Unavailable(description: "pg_ctl start failed: \(error)\nserver.log:\n\(log)")
            }
        }
        throw lastError ?? Unavailable(description: "pg_ctl start failed")
    }

    /// A PostgreSQL tool, run as `postgres` when the tests run as root.
    private static func tool(_ executable: String, _ arguments: [String], asPostgres: Bool, directory: String)
        -> ShellCommand
    {
        guard asPostgres else {
            return ShellCommand(executable: executable, arguments: arguments, directory: directory)
        }
        return ShellCommand(
            executable: runuser,
            arguments: ["-u", "postgres", "--", executable] + arguments,
            directory: directory
        )
    }

    private static var runuser: String {
        ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "runuser"
    }

    /// Stops the cluster and removes its directory once this process has exited.
    private static func startWatchdog(directory: String, data: String, pgCtl: String, asPostgres: Bool) throws {
        let pid = ProcessInfo.processInfo.processIdentifier
        let stop = (asPostgres ? "'\(runuser)' -u postgres -- " : "") + "'\(pgCtl)' -D '\(data)' -m immediate stop"
        let script = """
            while kill -0 \(pid) 2>/dev/null; do sleep 0.5; done
            \(stop) >/dev/null 2>&1
            rm -rf '\(directory)'
            """
        let setsid = "/usr/bin/setsid"
        if FileManager.default.isExecutableFile(atPath: setsid) {
            try ShellCommand(executable: setsid, arguments: ["/bin/sh", "-c", script]).launchDetached()
        } else {
            try ShellCommand(executable: "/bin/sh", arguments: ["-c", script]).launchDetached()
        }
    }

    /// The directory with initdb, pg_ctl and psql.
    private static func findBinaries() throws -> String {
        let fileManager = FileManager.default
        func hasTools(_ directory: String) -> Bool {
            ["initdb", "pg_ctl", "psql"].allSatisfy { fileManager.isExecutableFile(atPath: "\(directory)/\($0)") }
        }
        if let explicit = ProcessInfo.processInfo.environment["STOREKEEPER_PG_BIN"] {
            guard hasTools(explicit) else {
                throw Unavailable(description: "STOREKEEPER_PG_BIN=\(explicit) has no initdb, pg_ctl and psql")
            }
            return explicit
        }
        var candidates: [String] = []
        let debianRoot = "/usr/lib/postgresql"
        let versions = (try? fileManager.contentsOfDirectory(atPath: debianRoot)) ?? []
        candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(debianRoot)/\($0)/bin" }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        candidates += path.split(separator: ":").map(String.init)
        if let found = candidates.first(where: hasTools) { return found }
        throw Unavailable(
            description: """
                PostgreSQL binaries (initdb, pg_ctl, psql) not found in $STOREKEEPER_PG_BIN, \
                /usr/lib/postgresql/*/bin or PATH. The PostgreSQL half of LedgerTests needs them: \
                install PostgreSQL (Debian/Ubuntu: apt-get install -y postgresql).
                """
        )
    }
}
