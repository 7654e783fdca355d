import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `storekeeper` subcommand that serves HTTP (`emulator`, `serve`), run as a child
/// process on a loopback port.
final class ChildServer {
    let process = Process()
    let port: Int

    init(_ arguments: [String], port: Int) throws {
        self.port = port
        process.executableURL = CommandLineRunner.executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
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

    /// Waits (up to 20 s) until `GET path` answers 200.
    func waitUntilServing(_ path: String) async throws {
        if try await !LoopbackHTTP.waitUntilServing(port: port, path) {
            Issue.record("storekeeper \(process.arguments?.first ?? "") did not start serving \(path)")
        }
    }

    /// Sends SIGKILL, as the kernel's OOM killer or a pulled plug would, and waits for the
    /// process to end; whether the signal ended it.
    @discardableResult
    func kill() -> Bool {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// Sends SIGTERM and returns the exit status.
    @discardableResult
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
