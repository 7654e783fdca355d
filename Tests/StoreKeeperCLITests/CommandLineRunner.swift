import Foundation
import TestProcesses
import Testing

/// Runs the built `storekeeper` executable, as a user or a script would.
struct CommandLineRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String

        /// Standard output parsed as one JSON object.
        func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            return try #require(object as? [String: Any], "stdout is not a JSON object: \(stdout)")
        }
    }

    /// The `storekeeper` binary next to the test bundle in the build folder.
    static let executable: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("storekeeper")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/storekeeper")
    }()

    /// The verification tests' resources: real Apple-signed data.
    static let resources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AppStoreVerificationTests/Resources")

    static func resource(_ path: String) -> String {
        resources.appendingPathComponent(path).path
    }

    /// Runs `storekeeper arguments…`, feeding `input` to standard input, with `environment`
    /// added to this process's (through `env`). The pipes are written and read, and the
    /// process waited for, on a thread of its own, so a long command never holds one of the
    /// few cooperative threads the other tests run on.
    static func run(
        _ arguments: [String], input: Data = Data(), environment: [String: String] = [:]
    ) async throws -> Output {
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let child = try ChildProcess.spawn(
            assignments.isEmpty ? executable.path : "/usr/bin/env",
            assignments.isEmpty ? arguments : assignments + [executable.path] + arguments,
            standardInput: .descriptor(stdin.fileHandleForReading.fileDescriptor),
            standardOutput: .descriptor(stdout.fileHandleForWriting.fileDescriptor),
            standardError: .descriptor(stderr.fileHandleForWriting.fileDescriptor))
        try stdin.fileHandleForReading.close()
        try stdout.fileHandleForWriting.close()
        try stderr.fileHandleForWriting.close()
        return await withCheckedContinuation { continuation in
            Thread {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
                let out = stdout.fileHandleForReading.readDataToEndOfFile()
                let err = stderr.fileHandleForReading.readDataToEndOfFile()
                continuation.resume(
                    returning: Output(
                        status: child.waitBlocking().shellStatus,
                        stdout: String(decoding: out, as: UTF8.self),
                        stderr: String(decoding: err, as: UTF8.self)))
            }.start()
        }
    }
}
