import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
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

    /// Sends a request; the answer's status and JSON object (empty when not an object).
    func request(
        _ method: String, _ path: String, token: String? = nil, body: String? = nil
    ) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
    }

    /// Waits (up to 20 s) until `GET path` answers 200.
    func waitUntilServing(_ path: String) async throws {
        for _ in 0..<400 {
            if let (status, _) = try? await request("GET", path), status == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("storekeeper \(process.arguments?.first ?? "") did not start serving \(path)")
    }

    /// Sends SIGTERM and returns the exit status.
    @discardableResult
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
