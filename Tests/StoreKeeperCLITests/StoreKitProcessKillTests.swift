import Foundation
import LedgerTestSupport
import TestProcesses
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An app process (`storekit-player`: the pipeline over a StoreKit adapter on StoreKit for
/// Linux) SIGKILLed between the charge and the report, and between the report and the
/// finish, then started again on the same data directory: the goods arrive once and the
/// transaction ends finished. With Apple's notifications dropped, only the restarted app
/// can deliver them.
@Suite(.serialized, .timeLimit(.minutes(8)))
struct StoreKitProcessKillTests {
    /// Whether the emulator sends the server its notifications.
    enum Notifications: String, CaseIterable, Sendable {
        case sent, dropped
    }

    @Test(arguments: ["2", "1"], ["afterStorePurchase", "afterServerCall"])
    func aKilledAppDeliversOnceAfterItsRestart(api: String, boundary: String) async throws {
        for notifications in Notifications.allCases {
            try await killAndRestart(api: api, boundary: boundary, notifications: notifications)
        }
    }

    private func killAndRestart(api: String, boundary: String, notifications: Notifications) async throws {
        let database = try await StoreKind.sqlite.makeDatabase()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skkill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            database.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let server = KillableDevServer(databaseURL: database.url, dataFolder: folder, port: LoopbackPort.unused())
        try await server.start()
        if notifications == .dropped {
            let (status, _) = try await LoopbackHTTP.request(
                port: server.port, "PUT", "/emulator/v1/faults", body: #"{"notifications": {"dropRate": 1}}"#)
            #expect(status == 200, "faults set")
        }
        let player = "sk\(api)-\(boundary)"
        let device = "app-\(api)-\(boundary)"
        let token = try await CommandLineRunner.run(["token", "--player", player]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let arguments = [
            "--server", "http://127.0.0.1:\(server.port)", "--token", token, "--player", player,
            "--data", folder.appendingPathComponent("app").path, "--device", device, "--api", api,
        ]

        let firstLog = folder.appendingPathComponent("first.log").path
        let first = try ChildProcess.spawn(
            Self.executable, arguments + ["--buy", "coins100", "--pause-at", boundary],
            standardOutput: .file(firstLog), standardError: .standardOutput)
        #expect(
            try await Self.waitForLine("paused \(boundary)", in: firstLog), "\(notifications): reached \(boundary)")
        first.send(SIGKILL)
        #expect(await first.wait() == .signalled(SIGKILL))
        // Charged once. When `serve --dev` sends Apple's notifications, the server may already
        // have delivered it from ONE_TIME_CHARGE and finished it at Apple: the restarted app
        // must then settle its order by the server's word, not deliver again.
        let charged = try await Self.charges(device, server.port)
        #expect(charged.count == 1, "charged once before the kill")

        let secondLog = folder.appendingPathComponent("second.log").path
        let second = try ChildProcess.spawn(
            Self.executable, arguments, standardOutput: .file(secondLog), standardError: .standardOutput)
        let exit = await second.wait()
        let printed = (try? String(contentsOfFile: secondLog, encoding: .utf8)) ?? ""
        #expect(exit == .exited(0), "\(notifications): \(printed)")
        #expect(printed.hasPrefix("done\n"), "\(printed)")
        // `id state transactionId finished` a line; anything else (an error) is no record.
        let records = printed.split(separator: "\n").dropFirst().map { $0.split(separator: " ").map(String.init) }
            .filter { $0.count == 4 }
        #expect(records.map { $0[1] } == ["finished"], "\(printed)")
        #expect(records.map { $0[2] } == charged.map(\.transactionId))
        #expect(records.map { $0[3] } == ["true"])
        let after = try await Self.charges(device, server.port)
        #expect(after.map(\.transactionId) == charged.map(\.transactionId), "no second charge")
        #expect(after.map(\.finished) == [true])
        #expect(try await Self.coins(token, server.port) == 100, "\(notifications): delivered once")
        #expect(await server.stop() == 0)
    }

    /// `storekit-player`, beside `storekeeper` in the build folder.
    static var executable: String {
        CommandLineRunner.executable.deletingLastPathComponent().appendingPathComponent("storekit-player").path
    }

    /// Waits (up to 120 s: a debug build on two busy cores) until the child printed `line`.
    static func waitForLine(_ line: String, in path: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let printed = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if printed.split(separator: "\n").contains(Substring(line)) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// The emulator's charges on `device`, in order.
    static func charges(_ device: String, _ port: Int) async throws -> [(transactionId: String, finished: Bool)] {
        let (_, ledger) = try await LoopbackHTTP.requestList(port: port, "GET", "/emulator/v1/ledger")
        return ledger.filter { $0["deviceId"] as? String == device }.map {
            ($0["transactionId"] as? String ?? "", $0["finished"] as? Bool ?? false)
        }
    }

    /// The player's coins on the server.
    static func coins(_ token: String, _ port: Int) async throws -> Int64 {
        let (_, wallet) = try await LoopbackHTTP.request(port: port, "GET", "/v1/players/me/wallet", token: token)
        return ((wallet["balances"] as? [String: Any])?["coins"] as? NSNumber)?.int64Value ?? 0
    }
}
