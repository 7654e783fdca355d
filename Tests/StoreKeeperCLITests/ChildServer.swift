import Foundation
import TestProcesses
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `storekeeper` subcommand that serves HTTP (`emulator`, `serve`), run as a child
/// process on a loopback port.
final class ChildServer {
    let child: ChildProcess
    let arguments: [String]
    let port: Int
    /// Where the process's standard output and error go (removed with this object).
    let logPath: String

    init(_ arguments: [String], port: Int) throws {
        self.port = port
        self.arguments = arguments
        logPath =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("storekeeper-\(port)-\(UUID().uuidString).log").path
        child = try ChildProcess.spawn(
            CommandLineRunner.executable.path, arguments, standardOutput: .file(logPath),
            standardError: .standardOutput)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// The last 4 KB the process printed, for a failure's message.
    var logTail: String {
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return String(log.suffix(4096))
    }

    /// The arguments of `storekeeper serve --dev` on `port`, keeping the emulator's state in
    /// `dataFolder` and the ledger at `databaseURL` (by default a SQLite file in `dataFolder`).
    static func devServerArguments(port: Int, dataFolder: URL, databaseURL: String? = nil) -> [String] {
        [
            "serve", "--dev", "--port", "\(port)",
            "--database", databaseURL ?? "sqlite:" + dataFolder.appendingPathComponent("ledger.sqlite").path,
            "--dev-data-dir", dataFolder.path,
        ]
    }

    /// Starts `storekeeper serve --dev` (see ``devServerArguments(port:dataFolder:databaseURL:)``).
    static func devServer(port: Int, dataFolder: URL) throws -> ChildServer {
        try ChildServer(devServerArguments(port: port, dataFolder: dataFolder), port: port)
    }

    /// Sends a request; the answer's status and JSON object (empty when not an object).
    func request(
        _ method: String, _ path: String, token: String? = nil, body: String? = nil
    ) async throws -> (Int, [String: Any]) {
        try await LoopbackHTTP.request(port: port, method, path, token: token, body: body)
    }

    /// Waits (up to 60 s) until `GET path` answers 200.
    func waitUntilServing(_ path: String) async throws {
        if try await !LoopbackHTTP.waitUntilServing(port: port, path) {
            Issue.record("storekeeper \(arguments.first ?? "") did not start serving \(path); it printed:\n\(logTail)")
        }
    }

    /// Sends SIGKILL, as the kernel's OOM killer or a pulled plug would, and waits for the
    /// process to end; whether the signal ended it.
    @discardableResult
    func kill() -> Bool {
        child.send(SIGKILL)
        return child.waitBlocking() == .signalled(SIGKILL)
    }

    /// Sends SIGTERM and returns the exit status (128 plus the signal's number when a
    /// signal ended it).
    @discardableResult
    func terminate() -> Int32 {
        child.send(SIGTERM)
        return child.waitBlocking().shellStatus
    }
}
