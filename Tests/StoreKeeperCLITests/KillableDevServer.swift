import Foundation

/// A `storekeeper serve --dev` process on one port, one database and one dev data folder
/// (or any `storekeeper serve` command line), which a test kills with SIGKILL and starts
/// again on the same state.
actor KillableDevServer {
    let port: Int
    private let arguments: [String]
    private var process: ChildServer?
    /// How many times SIGKILL ended the server.
    private(set) var kills = 0

    init(databaseURL: String, dataFolder: URL, port: Int) {
        self.port = port
        arguments = ChildServer.devServerArguments(port: port, dataFolder: dataFolder, databaseURL: databaseURL)
    }

    /// A server started with `arguments` (`serve --config …`), serving on `port`.
    init(arguments: [String], port: Int) {
        self.port = port
        self.arguments = arguments
    }

    /// Starts the process and waits until it serves.
    func start() async throws {
        let process = try ChildServer(arguments, port: port)
        self.process = process
        guard try await LoopbackHTTP.waitUntilServing(port: port, "/healthz") else {
            throw StartFailure(arguments: arguments, log: process.logTail)
        }
    }

    /// Kills the process with SIGKILL, wherever it is, and waits until it is gone.
    func kill() {
        if process?.kill() == true { kills += 1 }
        process = nil
    }

    /// Stops the process with SIGTERM; its exit status.
    func stop() -> Int32? {
        defer { process = nil }
        return process?.terminate()
    }

    struct StartFailure: Error, CustomStringConvertible {
        var arguments: [String]
        var log: String
        var description: String {
            "storekeeper \(arguments.joined(separator: " ")) did not start serving in 60 s; it printed:\n\(log)"
        }
    }
}
