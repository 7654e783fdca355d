import Foundation
import Testing

/// `storekeeper serve` logs one escaped line per record (issue 25, section 2): a client's
/// forged log line is refused at the edge and, were it logged, could not start a line.
struct LogLineTests {
    @Test func aClientCannotWriteALineIntoTheServersLog() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("log-lines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = LoopbackPort.unused()
        let token = try await CommandLineRunner.run(["token", "--player", "alice"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ChildServer.devServer(port: port, dataFolder: directory)
        try await server.waitUntilServing("/healthz")
        let forged = #"1\n2026-11-28T13:09:00+0000 critical storekeeper: FORGED LINE"#
        for body in [
            #"{"receipt":"AAAA","transactionId":"\#(forged)"}"#,
            #"{"signedTransaction":"x.y.z","orderId":"\#(forged)"}"#,
        ] {
            let (status, answer) = try await server.request("POST", "/v1/purchases", token: token, body: body)
            #expect(status == 400 && answer["error"] as? String == "invalid_identifier", "\(answer)")
        }
        // A refusal that is logged: a receipt that is not one, for a well-formed claim.
        let (refused, _) = try await server.request(
            "POST", "/v1/purchases", token: token, body: #"{"receipt":"AAAA","transactionId":"123"}"#)
        #expect(refused == 422 || refused == 400)
        #expect(server.terminate() == 0)

        let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        let records = log.split(separator: "\n").filter { $0.contains(" storekeeper: ") }
        #expect(!records.isEmpty, "no log record in:\n\(log)")
        for record in records {
            #expect(
                record.firstMatch(
                    of: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (info|notice|warning|error) storekeeper:/)
                    != nil, "\(record)")
        }
        #expect(!log.contains("\n2026-11-28T13:09:00+0000 critical"), "\(log)")
    }
}
