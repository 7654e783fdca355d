import Foundation
import TestProcesses

/// A command the tests run (PostgreSQL's tools), waited for without blocking a thread.
struct ShellCommand {
    /// A command that exited with a failure status.
    struct Failure: Error, CustomStringConvertible {
        var command: String
        var termination: ChildProcess.Termination
        var output: String

        var description: String { "`\(command)` ended with \(termination):\n\(output)" }
    }

    /// The program.
    var executable: String
    /// Its arguments.
    var arguments: [String]
    /// The working directory.
    var directory: String?

    /// How long a command may run before it is killed (`initdb` and `pg_ctl start` take
    /// seconds; a `psql` statement, less).
    static let timeLimit: Duration = .seconds(300)

    /// Runs the command to completion and returns its output (standard output and error,
    /// through a file: a daemon it starts can keep no pipe of ours open). Throws
    /// ``Failure`` on a non-zero exit status, and when the command ran past ``timeLimit``
    /// and was killed.
    @discardableResult
    func run() async throws -> String {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("ledger-tests-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let child = try ChildProcess.spawn(
            executable, arguments, directory: directory, standardOutput: .file(outputPath),
            standardError: .standardOutput)
        let killer = Task {
            try await Task.sleep(for: Self.timeLimit)
            child.send(SIGKILL)
        }
        let termination = await child.wait()
        killer.cancel()
        var text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard termination.succeeded else {
            if termination == .signalled(SIGKILL) { text += "\n(killed: it ran past \(Self.timeLimit))" }
            throw Failure(
                command: ([executable] + arguments).joined(separator: " "), termination: termination, output: text)
        }
        return text
    }

    /// Starts the command and does not wait for it (output discarded; reaped when it ends).
    func launchDetached() throws {
        try ChildProcess.spawn(executable, arguments).reapWhenDone()
    }
}
