import Foundation

/// A command the tests run (PostgreSQL's tools), waited for without blocking a thread.
struct ShellCommand {
    /// A command that exited with a failure status.
    struct Failure: Error, CustomStringConvertible {
        var command: String
        var status: Int32
        var output: String

        var description: String { "`\(command)` exited with status \(status):\n\(output)" }
    }

    /// The program.
    var executable: String
    /// Its arguments.
    var arguments: [String]
    /// The working directory.
    var directory: String?

    /// The same command, started through bash after closing every inherited descriptor
    /// above 2. Needed for a command that leaves a daemon behind (`pg_ctl start`):
    /// Foundation's `Process` on Linux notices the exit of a child when a socket the child
    /// inherits is closed, and a daemon inheriting it would keep it open, so the command
    /// would never be seen to finish.
    func closingInheritedDescriptors() -> ShellCommand {
        let bash = "/bin/bash"
        guard FileManager.default.isExecutableFile(atPath: bash) else { return self }
        let script =
            #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; "#
            + #"if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null; fi; done; exec "$@""#
        return ShellCommand(
            executable: bash,
            arguments: ["-c", script, "ledger-tests", executable] + arguments,
            directory: directory
        )
    }

    /// Runs the command to completion and returns its output (standard output and error,
    /// through a file: a daemon it starts can keep no pipe of ours open). Throws
    /// ``Failure`` on a non-zero exit status.
    @discardableResult
    func run() async throws -> String {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("ledger-tests-\(UUID().uuidString).out").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        defer { try? output.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw Failure(
                command: ([executable] + arguments).joined(separator: " "),
                status: process.terminationStatus,
                output: text
            )
        }
        return text
    }

    /// Starts the command and does not wait for it (output discarded).
    func launchDetached() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }
}
